/**
 * The `/contact` page (DESIGN.md section 7): the contact form on a page of
 * its own, for visitors without JavaScript and for anyone who follows a
 * shared link. A normal post to `/contact`: the server answers with this
 * page again, showing the errors beside their fields (values kept), the
 * message of a save failure above the buttons, or the confirmation.
 */
import { CircleCheck } from "lucide-react";
import { useEffect, useRef } from "react";
import { Form, useActionData, useNavigation } from "react-router";
import { contactMessages } from "./schema";
import type { ContactActionData } from "./types";
import { ContactForm } from "./form";
import { buttonVariants } from "~/components/ui/button";

export function ContactPageView() {
  const answer = useActionData<ContactActionData>();
  const navigation = useNavigation();
  const pending = navigation.state !== "idle" && navigation.formAction === "/contact";

  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-12 sm:px-6 sm:py-16">
      {answer?.status === "success" ? (
        <Confirmation />
      ) : (
        <>
          <h1 className="text-4xl font-bold text-ink">Contactez-moi</h1>
          <p className="mt-4 text-xl text-muted">
            Remplissez ce formulaire&nbsp;: je vous recontacte très prochainement, par téléphone ou par e-mail.
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

/** Shown after a successful request; with JavaScript, the heading takes the focus so it is read at once. */
function Confirmation() {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <div className="flex flex-col items-start gap-5 rounded-3xl border-2 border-green-800 bg-green-50 p-6 sm:p-8">
      <CircleCheck aria-hidden="true" className="size-14 text-green-800" />
      <h1 ref={headingRef} tabIndex={-1} className="text-4xl font-bold text-ink focus:outline-none">
        {contactMessages.successTitle}
      </h1>
      <p className="text-xl text-ink">{contactMessages.successText}</p>
      <a href="/" className={buttonVariants({ size: "large" })}>
        Retour à l’accueil
      </a>
    </div>
  );
}
