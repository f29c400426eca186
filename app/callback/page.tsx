/**
 * The `/rappel` page: the callback request form, or, after a successful
 * post, the confirmation: when the call will come (within two working
 * days), the code word the trainer will say, and the link to `/confiance`.
 * A plain post: the server answers with this page again (errors beside
 * their fields, values kept), also without JavaScript.
 */
import { useActionData, useNavigation } from "react-router";
import { ConfirmationPanel } from "~/components/confirmation-panel";
import { CodeWordBox } from "~/trust/code-word-box";
import { CallbackForm } from "./form";
import type { CallbackActionData } from "./types";
import { callbackMessages } from "./words";

export function CallbackPageView() {
  const answer = useActionData<CallbackActionData>();
  const navigation = useNavigation();
  const pending = navigation.state !== "idle" && navigation.formAction === "/rappel";

  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-12 sm:px-6 sm:py-16">
      {answer?.status === "success" && answer.codeWord ? (
        <ConfirmationPanel title={callbackMessages.successTitle} text={callbackMessages.successText}>
          <CodeWordBox codeWord={answer.codeWord} />
        </ConfirmationPanel>
      ) : (
        <>
          <h1 className="text-4xl font-bold text-ink">Rappelez-moi</h1>
          <p className="mt-4 text-xl text-ink">
            Vous préférez parler plutôt qu’écrire&nbsp;? Laissez votre nom et votre numéro&nbsp;: je vous appelle dans
            les deux jours ouvrables, au moment qui vous convient. L’appel est gratuit et sans engagement.
          </p>
          <CallbackForm
            lastResult={answer?.result}
            pending={pending}
            className="mt-8 rounded-3xl border border-line bg-white p-5 shadow-md sm:p-8"
          />
        </>
      )}
    </div>
  );
}
