import type { ReactNode } from "react";

// Every icon the product draws, in one place. Icons are decoration (aria-hidden): the control they sit
// in carries the accessible name. Solid icons are drawn on a 20-unit grid, outline ones on 24.

type IconDrawing = { outline?: true; body: ReactNode };

const icons = {
  play: { body: <path d="M6.3 2.84A1.5 1.5 0 0 0 4 4.11v11.78a1.5 1.5 0 0 0 2.3 1.27l9.34-5.89a1.5 1.5 0 0 0 0-2.54L6.3 2.84Z" /> },
  pause: {
    body: (
      <path d="M5.75 3a.75.75 0 0 0-.75.75v12.5c0 .41.34.75.75.75h1.5a.75.75 0 0 0 .75-.75V3.75A.75.75 0 0 0 7.25 3h-1.5Zm7 0a.75.75 0 0 0-.75.75v12.5c0 .41.34.75.75.75h1.5a.75.75 0 0 0 .75-.75V3.75a.75.75 0 0 0-.75-.75h-1.5Z" />
    ),
  },
  heart: {
    body: (
      <path d="m9.65 16.78-.01-.01-.02-.01a22 22 0 0 1-1.16-.7 24 24 0 0 1-2.66-2C4.03 12.49 2 10.1 2 7.25 2 4.9 3.96 3 6.25 3A4.3 4.3 0 0 1 10 5.1 4.3 4.3 0 0 1 13.75 3C16.04 3 18 4.9 18 7.25c0 2.85-2.03 5.24-3.8 6.8a24 24 0 0 1-3.82 2.71l-.02.01h-.01a.75.75 0 0 1-.7.01Z" />
    ),
  },
  plus: {
    body: (
      <path d="M10.75 4.75a.75.75 0 0 0-1.5 0v4.5h-4.5a.75.75 0 0 0 0 1.5h4.5v4.5a.75.75 0 0 0 1.5 0v-4.5h4.5a.75.75 0 0 0 0-1.5h-4.5v-4.5Z" />
    ),
  },
  check: {
    body: (
      <path
        fillRule="evenodd"
        d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.58l7.3-7.3a1 1 0 0 1 1.4 0Z"
        clipRule="evenodd"
      />
    ),
  },
  search: {
    body: (
      <path
        fillRule="evenodd"
        d="M9 3.5a5.5 5.5 0 1 0 0 11 5.5 5.5 0 0 0 0-11ZM2 9a7 7 0 1 1 12.45 4.39l3.58 3.58a.75.75 0 1 1-1.06 1.06l-3.58-3.58A7 7 0 0 1 2 9Z"
        clipRule="evenodd"
      />
    ),
  },
  menu: {
    body: (
      <path
        fillRule="evenodd"
        d="M2 4.75A.75.75 0 0 1 2.75 4h14.5a.75.75 0 0 1 0 1.5H2.75A.75.75 0 0 1 2 4.75Zm0 5.25a.75.75 0 0 1 .75-.75h14.5a.75.75 0 0 1 0 1.5H2.75A.75.75 0 0 1 2 10Zm.75 4.5a.75.75 0 0 0 0 1.5h14.5a.75.75 0 0 0 0-1.5H2.75Z"
        clipRule="evenodd"
      />
    ),
  },
  music: {
    outline: true,
    body: <path d="M9 18V5l12-2v13M9 18a3 3 0 1 1-6 0 3 3 0 0 1 6 0Zm12-2a3 3 0 1 1-6 0 3 3 0 0 1 6 0Z" />,
  },
  headphones: {
    outline: true,
    body: (
      <path d="M3 18v-6a9 9 0 0 1 18 0v6M21 19a2 2 0 0 1-2 2h-1a2 2 0 0 1-2-2v-3a2 2 0 0 1 2-2h3zM3 19a2 2 0 0 0 2 2h1a2 2 0 0 0 2-2v-3a2 2 0 0 0-2-2H3z" />
    ),
  },
  share: {
    outline: true,
    body: (
      <>
        <circle cx="18" cy="5" r="3" />
        <circle cx="6" cy="12" r="3" />
        <circle cx="18" cy="19" r="3" />
        <path d="m8.6 13.5 6.8 4M15.4 6.5l-6.8 4" />
      </>
    ),
  },
  previous: {
    outline: true,
    body: <path d="M19 20 9 12l10-8v16ZM5 19V5" />,
  },
  next: {
    outline: true,
    body: <path d="m5 4 10 8-10 8V4ZM19 5v14" />,
  },
  volume: {
    outline: true,
    body: <path d="M11 5 6 9H2v6h4l5 4V5ZM15.54 8.46a5 5 0 0 1 0 7.07M19.07 4.93a10 10 0 0 1 0 14.14" />,
  },
  muted: {
    outline: true,
    body: <path d="M11 5 6 9H2v6h4l5 4V5ZM22 9l-6 6M16 9l6 6" />,
  },
  shuffle: {
    outline: true,
    body: <path d="M16 3h5v5M4 20 21 3M21 16v5h-5M15 15l6 6M4 4l5 5" />,
  },
  repeat: {
    outline: true,
    body: <path d="m17 2 4 4-4 4M3 11v-1a4 4 0 0 1 4-4h14M7 22l-4-4 4-4M21 13v1a4 4 0 0 1-4 4H3" />,
  },
  queue: {
    outline: true,
    body: <path d="M21 15V6M18.5 18a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5ZM12 12H3M16 6H3M12 18H3" />,
  },
  more: {
    outline: true,
    body: <path d="M5 12h.01M12 12h.01M19 12h.01" />,
  },
  up: {
    outline: true,
    body: <path d="m18 15-6-6-6 6" />,
  },
  down: {
    outline: true,
    body: <path d="m6 9 6 6 6-6" />,
  },
  close: {
    outline: true,
    body: <path d="M18 6 6 18M6 6l12 12" />,
  },
} satisfies Record<string, IconDrawing>;

export type IconName = keyof typeof icons;

export function Icon({ name, className, strokeWidth = 2 }: { name: IconName; className?: string; strokeWidth?: number }) {
  const icon: IconDrawing = icons[name];
  return icon.outline ? (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className={className}
      fill="none"
      stroke="currentColor"
      strokeWidth={strokeWidth}
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      {icon.body}
    </svg>
  ) : (
    <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className={className}>
      {icon.body}
    </svg>
  );
}
