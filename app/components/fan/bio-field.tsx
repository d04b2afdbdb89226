import { useEffect, useId, useRef, useState } from "react";
import { Button } from "~/components/ui/button";
import { TextareaField } from "~/components/ui/field";
import { useHydrated } from "~/lib/ui/use-hydrated";

/** The picker module, loaded the first time a person opens it. */
const emojiPicker = () => import("~/lib/ui/emoji-picker.client");

/**
 * The bio, with an emoji button (JavaScript only; without it the keyboard's own emoji still work). The
 * picker loads when first opened; a chosen emoji goes in at the cursor. Escape closes it and gives the
 * focus back to the button; a press anywhere else closes it and goes where it was meant (the genre chips
 * below it, for one). If the picker cannot load, it says so and the bio keeps working.
 */
export function BioField({ defaultValue, error, maxLength }: { defaultValue: string; error?: string; maxLength: number }) {
  const id = useId();
  const hydrated = useHydrated();
  const textarea = useRef<HTMLTextAreaElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const holder = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState(false);
  const [state, setState] = useState<"closed" | "loading" | "ready" | "failed">("closed");
  const dialog = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const closeOutside = (event: PointerEvent) => {
      const path = event.composedPath();
      if (!path.some((target) => target === dialog.current || target === button.current)) setOpen(false);
    };
    document.addEventListener("pointerdown", closeOutside, true);
    return () => document.removeEventListener("pointerdown", closeOutside, true);
  }, [open]);

  const insert = (emoji: string) => {
    const field = textarea.current;
    if (!field) return;
    field.setRangeText(emoji, field.selectionStart, field.selectionEnd, "end");
    field.dispatchEvent(new Event("input", { bubbles: true }));
    setOpen(false);
    field.focus();
  };

  async function toggle() {
    if (open) {
      setOpen(false);
      return;
    }
    setOpen(true);
    const container = holder.current;
    if (!container) return;
    if (state === "ready") {
      const picker = container.firstElementChild;
      if (picker instanceof HTMLElement) (await emojiPicker()).focusEmojiSearch(picker);
      return;
    }
    setState("loading");
    try {
      const { createEmojiPicker, focusEmojiSearch } = await emojiPicker();
      const picker = createEmojiPicker(insert);
      container.replaceChildren(picker);
      setState("ready");
      focusEmojiSearch(picker);
    } catch (failure) {
      console.warn("the emoji picker could not load", failure);
      setState("failed");
    }
  }

  return (
    <div className="relative">
      <TextareaField
        ref={textarea}
        id={`${id}-bio`}
        label="Bio"
        name="bio"
        rows={5}
        maxLength={maxLength}
        defaultValue={defaultValue}
        error={error}
      />
      {hydrated ? (
        <div className="mt-2">
          <Button
            ref={button}
            type="button"
            variant="secondary"
            aria-expanded={open}
            aria-controls={`${id}-emoji`}
            onClick={() => void toggle()}
          >
            <span aria-hidden="true">😊</span> Add emoji
          </Button>
          <div
            ref={dialog}
            id={`${id}-emoji`}
            role="dialog"
            aria-label="Choose an emoji"
            hidden={!open}
            onKeyDown={(event) => {
              if (event.key !== "Escape") return;
              event.stopPropagation();
              setOpen(false);
              button.current?.focus();
            }}
            className="absolute z-20 mt-2"
          >
            {state === "loading" ? <p className="rounded-xl bg-stage-850 p-3 text-sm text-ink-muted">Loading emoji...</p> : null}
            {state === "failed" ? (
              <p role="alert" className="rounded-xl bg-stage-850 p-3 text-sm text-danger">
                The emoji picker could not load. You can still type emoji with your keyboard.
              </p>
            ) : null}
            <div ref={holder} />
          </div>
        </div>
      ) : null}
    </div>
  );
}
