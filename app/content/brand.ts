/**
 * The header's two-line brand: the one part of the owner's details that
 * pages' JavaScript may carry (the contact and callback forms name it). A
 * module of its own so that importing it brings nothing else of
 * `identity.ts` into the browser's files: the bundler keeps a whole object
 * once one of its properties is read (tests/e2e/served-html.spec.ts checks
 * that no public JavaScript file holds the contact details).
 */
export const brand = { line1: "Formation & Assistance", line2: "Informatique" } as const;
