import { href, Link } from "react-router";
import { brandName } from "~/lib/constants";

export function Logo() {
  return (
    <Link to={href("/")} className="flex items-center gap-2 rounded-md text-lg font-bold tracking-tight text-ink">
      <svg aria-hidden="true" viewBox="0 0 32 32" className="size-8">
        <defs>
          <linearGradient id="logo-gradient" x1="0" y1="0" x2="1" y2="1">
            <stop offset="0" stopColor="#ff4fa3" />
            <stop offset="1" stopColor="#ffb547" />
          </linearGradient>
        </defs>
        <rect width="32" height="32" rx="9" fill="url(#logo-gradient)" />
        <path d="M8 20v-8M12.5 23V9M17 19v-6M21.5 22V10M26 18v-4" stroke="#1a0610" strokeWidth="2.4" strokeLinecap="round" />
      </svg>
      <span className="font-display">{brandName}</span>
      <span className="sr-only">home</span>
    </Link>
  );
}
