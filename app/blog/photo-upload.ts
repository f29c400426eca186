/**
 * The article editor's photo upload once JavaScript runs (issue 33, item 8).
 * « Ajouter la photo au texte » posts the form (`intent=upload`, the same
 * action as without JavaScript) with XMLHttpRequest, so that its upload
 * progress can be shown (`percent`, 0 to 100), while the owner goes on
 * writing; the picture's Markdown, read from the answered page's text
 * field, is added at the end of the text as it is then. Any other button
 * pressed meanwhile (« Publier maintenant », « Enregistrer »…) waits for
 * the photo (`waiting`) and is pressed again once it has arrived; a refused
 * photo gives the French reason the page gave, and the waiting button is
 * not pressed.
 *
 * `usePhotoUpload()` → `{ state, onSubmit }`: `onSubmit` goes on the
 * editor's `<Form>` (it calls `preventDefault()` on what it takes over); the
 * text field is the form's `body`.
 */
import { useRef, useState, type FormEvent } from "react";

export type PhotoUploadState =
  | { phase: "idle" }
  | { phase: "sending"; percent: number; waiting: boolean }
  | { phase: "added"; message: string }
  | { phase: "refused"; message: string };

/** Said once the picture is in the text (as the action says without JavaScript). */
export const PHOTO_ADDED =
  "Photo ajoutée à la fin du texte. Déplacez-la si besoin, puis enregistrez ou publiez l’article.";
const PHOTO_FAILED = "La photo n’a pas pu être envoyée. Vérifiez la connexion à Internet, puis réessayez.";

export function usePhotoUpload() {
  const [state, setState] = useState<PhotoUploadState>({ phase: "idle" });
  const sending = useRef(false);
  /** The button pressed while the photo was on its way, pressed again once it has arrived. */
  const waiting = useRef<{ button: HTMLButtonElement | null } | null>(null);

  function finish(form: HTMLFormElement, status: number, html: string) {
    sending.current = false;
    const next = waiting.current;
    waiting.current = null;
    const page = new DOMParser().parseFromString(html, "text/html");
    const returned = page.querySelector("textarea#article-body")?.textContent ?? "";
    const added = [...returned.matchAll(/!\[[^\]\n]*\]\(\/images\/[^)\s]+\)/g)].at(-1)?.[0];
    const field = form.elements.namedItem("body");
    if (status === 200 && added && field instanceof HTMLTextAreaElement) {
      field.value = `${field.value.trimEnd()}\n\n${added}\n`;
      // Tells the form (and its live preview) that the text changed.
      field.dispatchEvent(new Event("input", { bubbles: true }));
      for (const name of ["picture", "pictureAlt"]) {
        const input = form.elements.namedItem(name);
        if (input instanceof HTMLInputElement || input instanceof HTMLTextAreaElement) input.value = "";
      }
      setState({ phase: "added", message: PHOTO_ADDED });
      if (next) form.requestSubmit(next.button);
      return;
    }
    const reason = [...page.querySelectorAll('p[id$="-error"]')].map((line) => line.textContent?.trim()).find(Boolean);
    setState({
      phase: "refused",
      message: `${reason ?? PHOTO_FAILED}${next ? " L’article n’a pas été enregistré : ajoutez la photo, puis recommencez." : ""}`,
    });
  }

  function send(form: HTMLFormElement, submitter: HTMLButtonElement) {
    const data = new FormData(form, submitter);
    const request = new XMLHttpRequest();
    sending.current = true;
    setState({ phase: "sending", percent: 0, waiting: false });
    request.upload.addEventListener("progress", (event) => {
      if (!event.lengthComputable) return;
      const percent = Math.floor((event.loaded * 100) / event.total);
      setState((now) => (now.phase === "sending" ? { ...now, percent } : now));
    });
    request.addEventListener("load", () => finish(form, request.status, request.responseText));
    for (const failure of ["error", "abort", "timeout"] as const)
      request.addEventListener(failure, () => finish(form, 0, ""));
    request.open("POST", form.action);
    request.send(data);
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const button = submitter instanceof HTMLButtonElement ? submitter : null;
    if (button?.value === "upload") {
      event.preventDefault();
      if (!sending.current) send(event.currentTarget, button);
      return;
    }
    if (sending.current) {
      event.preventDefault();
      waiting.current = { button };
      setState((now) => (now.phase === "sending" ? { ...now, waiting: true } : now));
      return;
    }
    // The page's own answer follows: what became of the last photo is no longer news.
    setState({ phase: "idle" });
  }

  return { state, onSubmit };
}
