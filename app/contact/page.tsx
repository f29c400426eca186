/**
 * The `/contact` page (DESIGN.md section 7): the contact form on a page of
 * its own, for visitors without JavaScript and for anyone who follows a
 * shared link. A normal post to `/contact`: the server answers with this
 * page again, showing the errors beside their fields (values kept), the
 * message of a save failure above the buttons, or the confirmation with the
 * request's code word.
 */
import { Form, useActionData, useNavigation } from "react-router";
import { contactMessages } from "./schema";
import type { ContactActionData } from "./types";
import { ContactForm } from "./form";
import { ConfirmationPanel } from "~/components/confirmation-panel";
import { CodeWordBox } from "~/trust/code-word-box";

export function ContactPageView() {
  const answer = useActionData<ContactActionData>();
  const navigation = useNavigation();
  const pending = navigation.state !== "idle" && navigation.formAction === "/contact";

  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-12 sm:px-6 sm:py-16">
      {answer?.status === "success" ? (
        <ConfirmationPanel title={contactMessages.successTitle} text={contactMessages.successText}>
          {answer.codeWord ? <CodeWordBox codeWord={answer.codeWord} /> : null}
        </ConfirmationPanel>
      ) : (
        <>
          <h1 className="text-4xl font-bold text-ink">Contactez-moi</h1>
          <p className="mt-4 text-xl text-muted">
            Remplissez ce formulaire&nbsp;: je vous recontacte très prochainement, par téléphone ou par e-mail.
          </p>
          <p className="mt-3 text-lg text-ink">
            Vous préférez être appelé(e), sans donner d’adresse e-mail&nbsp;?{" "}
            <a href="/rappel" className="font-semibold text-primary underline underline-offset-4">
              Rappelez-moi
            </a>
            . Une question sur les prix ou les déplacements&nbsp;? Voyez les{" "}
            <a href="/questions" className="font-semibold text-primary underline underline-offset-4">
              questions fréquentes
            </a>
            .
          </p>
          <ContactForm
            id="contact-page-form"
            as={Form}
            lastResult={answer?.result}
            pending={pending}
            className="mt-8 rounded-3xl border border-line bg-white p-5 shadow-md sm:p-8"
          />
        </>
      )}
    </div>
  );
}
