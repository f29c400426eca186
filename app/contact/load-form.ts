/**
 * Loads the contact form's module (Conform, zod) on demand: the dialog
 * preloads it when a visitor shows interest, the dialog's shell renders it.
 * Its own module, so that neither imports the other.
 */
export const loadContactForm = () => import("./form");
