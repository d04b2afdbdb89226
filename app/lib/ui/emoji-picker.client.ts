// The emoji picker (emoji-picker-element, a web component, and its emoji data from emojibase), loaded only
// when a person opens it: the page's own script never carries either. The data is a file of this build
// (served from our origin, cached like the scripts); the picker keeps it in IndexedDB after the first open.
import { Picker } from "emoji-picker-element";
import dataSource from "emoji-picker-element-data/en/emojibase/data.json?url";

/** A picker that calls `onEmoji` with each emoji chosen. */
export function createEmojiPicker(onEmoji: (emoji: string) => void): HTMLElement {
  const picker = new Picker({ dataSource, locale: "en" });
  // The site is dark; the picker follows.
  picker.classList.add("dark");
  picker.addEventListener("emoji-click", (event) => {
    if (event.detail.unicode) onEmoji(event.detail.unicode);
  });
  return picker;
}

/** Moves the focus into the picker's search box once it has rendered, so the keyboard can start there. */
export function focusEmojiSearch(picker: HTMLElement): void {
  const search = () => picker.shadowRoot?.querySelector<HTMLInputElement>("input");
  const tryFocus = (attempts: number) => {
    const input = search();
    if (input) input.focus();
    else if (attempts > 0) requestAnimationFrame(() => tryFocus(attempts - 1));
  };
  tryFocus(30);
}
