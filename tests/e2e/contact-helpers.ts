/** Shared steps of the contact form's browser tests (dialog and `/contact` page). */
import { parseWithZod } from "@conform-to/zod/v4";
import { expect, type Locator, type Page } from "@playwright/test";
import { contactMessages, contactSchema } from "../../app/contact/schema";
import type { ContactActionData } from "../../app/contact/types";

export const isMobile = (page: Page) => (page.viewportSize()?.width ?? 1280) < 1024;

/** The five required fields, their labels and the spec's message for each (spec section 5). */
export const requiredFields = [
  { name: "firstName", label: "Prénom", message: contactMessages.firstName },
  { name: "lastName", label: "Nom", message: contactMessages.lastName },
  { name: "email", label: "Adresse e-mail", message: contactMessages.email },
  { name: "phone", label: "Téléphone", message: contactMessages.phone },
  { name: "service", label: "Service souhaité", message: contactMessages.service },
] as const;

/** A valid request. */
export const validRequest = {
  firstName: "Jeanne",
  lastName: "Dupraz",
  email: "jeanne.dupraz@example.ch",
  phone: "+41 79 123 45 67",
  serviceLabel: "Cours individuel",
  message: "J’aimerais apprendre à faire des appels vidéo avec mes petits-enfants.",
};

/**
 * Gives this page its own client address for the server's per-IP rate limit
 * (the server trusts `X-Forwarded-For` from loopback), so that tests do not
 * use up each other's allowance. Returns the address, for `page.request`.
 */
export async function useOwnClientAddress(page: Page): Promise<string> {
  const byte = () => Math.floor(Math.random() * 256);
  const address = `10.${byte()}.${byte()}.${byte()}`;
  await page.setExtraHTTPHeaders({ "X-Forwarded-For": address });
  return address;
}

/** The field of that label, exactly (so "Nom" does not match "Prénom"). */
export function field(scope: Page | Locator, label: string): Locator {
  return scope.getByLabel(label, { exact: true });
}

/** Opens the dialog from the header's "Contactez-moi" (the small-screen menu's on phones); returns the link used. */
export async function openDialogFromHeader(page: Page): Promise<{ dialog: Locator; opener: Locator }> {
  let opener: Locator;
  if (isMobile(page)) {
    await page.getByRole("button", { name: "Menu" }).click();
    await page.locator("#menu-mobile").getByRole("link", { name: "Contactez-moi", exact: true }).click();
    // The menu closes: the dialog gives the focus back to the menu's button.
    opener = page.getByRole("button", { name: "Menu" });
  } else {
    opener = page.locator("header nav").first().getByRole("link", { name: "Contactez-moi", exact: true });
    await opener.click();
  }
  const dialog = page.getByRole("dialog", { name: "Contactez-moi" });
  await expect(dialog).toBeVisible();
  return { dialog, opener };
}

/** Fills every field with `validRequest`. */
export async function fillValidRequest(scope: Page | Locator): Promise<void> {
  await field(scope, "Prénom").fill(validRequest.firstName);
  await field(scope, "Nom").fill(validRequest.lastName);
  await field(scope, "Adresse e-mail").fill(validRequest.email);
  await field(scope, "Téléphone").fill(validRequest.phone);
  await field(scope, "Service souhaité").selectOption({ label: validRequest.serviceLabel });
  await field(scope, "Message (facultatif)").fill(validRequest.message);
}

/**
 * Each required field is invalid (`aria-invalid`), described by its French
 * message, and the message stands right under the field.
 */
export async function expectFiveErrors(scope: Page | Locator): Promise<void> {
  for (const { label, message } of requiredFields) {
    const control = field(scope, label);
    await expect(control, label).toHaveAttribute("aria-invalid", "true");
    await expect(control, label).toHaveAccessibleDescription(new RegExp(escapeRegExp(message)));
    const errorId = (await control.getAttribute("aria-describedby"))!.split(" ")[0]!;
    const error = scope.locator(`[id="${errorId}"]`);
    await expect(error).toHaveText(message);
    await expect(error).toBeVisible();
    // Beside its field: just below it, in the same column (both measured at once: the page may be scrolling).
    const { gap, offset } = await control.evaluate((element, id) => {
      const [box, errorBox] = [element.getBoundingClientRect(), document.getElementById(id)!.getBoundingClientRect()];
      return { gap: errorBox.top - box.bottom, offset: Math.abs(errorBox.left - box.left) };
    }, errorId);
    expect(gap, `${label}: message under the field`).toBeGreaterThanOrEqual(-1);
    expect(gap, `${label}: message close to the field`).toBeLessThan(24);
    expect(offset, `${label}: message aligned with the field`).toBeLessThan(4);
  }
}

/**
 * The message `text` under its field (a paragraph), not its link in the
 * error summary at the top of the form.
 */
export function fieldMessage(scope: Page | Locator, text: string): Locator {
  return scope.locator("p", { hasText: text });
}

/** The error summary of the form `formId` (`{formId}-summary`). */
export function errorSummary(scope: Page | Locator, formId: string): Locator {
  return scope.locator(`#${formId}-summary`);
}

/** No field is marked invalid, no message is shown. */
export async function expectNoErrors(scope: Page | Locator): Promise<void> {
  for (const { label, message } of requiredFields) {
    await expect(field(scope, label), label).not.toHaveAttribute("aria-invalid", "true");
    await expect(scope.getByText(message, { exact: true })).toHaveCount(0);
  }
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * React Router's single-fetch answer body (turbo-stream: one flat JSON
 * array, objects as `{"_<key index>": <value index>}`, -5 null, -7
 * undefined) for plain JSON data: lets a test answer a fetcher's post as the
 * server would.
 */
export function singleFetchBody(value: unknown): string {
  const flat: unknown[] = [];
  const add = (item: unknown): number => {
    if (item === undefined) return -7;
    if (item === null) return -5;
    const index = flat.length;
    flat.push(null);
    if (Array.isArray(item)) {
      flat[index] = item.map(add);
    } else if (typeof item === "object") {
      const entries: Record<string, number> = {};
      for (const [key, child] of Object.entries(item)) {
        const keyIndex = flat.length;
        flat.push(key);
        entries[`_${keyIndex}`] = add(child);
      }
      flat[index] = entries;
    } else {
      flat[index] = item;
    }
    return index;
  };
  add(value);
  return JSON.stringify(flat);
}

/** Answers the page's next contact posts as the server does past the rate limit (429) or when saving fails (503). */
export async function answerContactPostWith(page: Page, status: "rate-limited" | "error") {
  await page.route("**/contact.data*", async (route) => {
    if (route.request().method() !== "POST") return route.continue();
    const submission = parseWithZod(new URLSearchParams(route.request().postData() ?? ""), { schema: contactSchema });
    const message = status === "error" ? contactMessages.saveError : contactMessages.rateLimited;
    const data: ContactActionData = { status, result: submission.reply({ formErrors: [message] }) };
    await route.fulfill({
      status: status === "error" ? 503 : 429,
      headers: { "Content-Type": "text/x-script", "X-Remix-Response": "yes" },
      body: singleFetchBody({ data }),
    });
  });
}
