/**
 * The live preview of the desk's editors (a letter, an article): while the
 * owner types, the form is posted with `intent=preview` 400 ms after the
 * last change, through a fetcher (the page does not move). `data` is the
 * latest answer of the two ways the action is reached: the page's own
 * submission (`answer`: a button, or without JavaScript) or the fetcher,
 * whichever came last, so an older preview never hides a newer one.
 */
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useFetcher } from "react-router";

/** Milliseconds of quiet typing before the preview is asked for. */
const PREVIEW_DELAY_MS = 400;

export function useLivePreview<T>(answer: T | undefined) {
  const fetcher = useFetcher<T>();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const fetched = fetcher.data as T | undefined;
  // Which of the two changed last, remembered across renders (React's "state from a change of props" pattern).
  const [seen, setSeen] = useState({ answer, fetched, latest: answer });
  let latest = seen.latest;
  if (seen.answer !== answer || seen.fetched !== fetched) {
    latest = seen.answer !== answer ? answer : (fetched ?? latest);
    setSeen({ answer, fetched, latest });
  }
  useEffect(() => () => clearTimeout(timer.current), []);
  return {
    data: latest,
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
