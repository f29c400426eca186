/**
 * The live preview of the desk's editors (a letter, an article): while the
 * owner types, the form is posted with `intent=preview` 400 ms after the
 * last change, through a fetcher (the page does not move), and the action's
 * answer is `data`. Without JavaScript the editors' "Aperçu" buttons post
 * the same intent.
 */
import { useEffect, useRef, type FormEvent } from "react";
import { useFetcher } from "react-router";

/** Milliseconds of quiet typing before the preview is asked for. */
const PREVIEW_DELAY_MS = 400;

export function useLivePreview<T>() {
  const fetcher = useFetcher<T>();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return {
    data: fetcher.data,
    onChange(event: FormEvent<HTMLFormElement>) {
      const form = event.currentTarget;
      clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        const posted = new FormData(form);
        posted.set("intent", "preview");
        // A chosen photo is sent by its own button, never with each preview.
        for (const [name, value] of [...posted.entries()]) if (value instanceof File) posted.delete(name);
        void fetcher.submit(posted, { method: "post" });
      }, PREVIEW_DELAY_MS);
    },
  };
}
