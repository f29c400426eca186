/**
 * `/contact` with JavaScript turned off: the header's "Contactez-moi" leads
 * there, the browser posts the form itself, and the server answers with
 * the errors beside their fields (HTTP 400, values kept) or the
 * confirmation.
 */
import { expect, test } from "@playwright/test";
import { contactMessages } from "../../app/contact/schema";
import {
  errorSummary,
  expectFiveErrors,
  field,
  fieldMessage,
  fillValidRequest,
  requiredFields,
  validRequest,
} from "./contact-helpers";

test.use({ javaScriptEnabled: false });

test("the header's Contactez-moi leads to the /contact page and its form", async ({ page }) => {
  await page.goto("/");
  await page.locator("header nav").first().getByRole("link", { name: "Contactez-moi", exact: true }).click();
  await expect(page).toHaveURL(/\/contact$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Contactez-moi");
  for (const { label } of requiredFields) await expect(field(page, label)).toBeVisible();
  await expect(field(page, "Message (facultatif)")).toBeVisible();
  await expect(page.getByRole("checkbox")).not.toBeChecked();
  await expect(page.getByRole("button", { name: "Envoyer" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Annuler" })).toHaveCount(0);
});

test("an empty post answers 400 with the five messages beside their fields, and keeps what was typed", async ({
  page,
}) => {
  const response = await page.goto("/contact");
  expect(response?.status()).toBe(200);
  await field(page, "Message (facultatif)").fill(validRequest.message);
  await page.getByRole("checkbox").check();

  const answer = page.waitForResponse((response) => response.request().method() === "POST");
  await page.getByRole("button", { name: "Envoyer" }).click();
  expect((await answer).status()).toBe(400);
  await expect(page).toHaveURL(/\/contact$/);
  await expectFiveErrors(page);
  await expect(errorSummary(page, "contact-page-form").getByRole("link")).toHaveText(
    requiredFields.map(({ message }) => message),
  );
  await expect(field(page, "Message (facultatif)")).toHaveValue(validRequest.message);
  await expect(page.getByRole("checkbox")).toBeChecked();

  // A second try with some fields right: those keep their value and lose their message.
  await field(page, "Prénom").fill("J");
  await field(page, "Adresse e-mail").fill(validRequest.email);
  await field(page, "Service souhaité").selectOption({ label: validRequest.serviceLabel });
  const second = page.waitForResponse((response) => response.request().method() === "POST");
  await page.getByRole("button", { name: "Envoyer" }).click();
  expect((await second).status()).toBe(400);
  await expect(field(page, "Prénom")).toHaveValue("J");
  await expect(field(page, "Prénom")).toHaveAttribute("aria-invalid", "true");
  await expect(fieldMessage(page, contactMessages.firstName)).toBeVisible();
  await expect(field(page, "Adresse e-mail")).toHaveValue(validRequest.email);
  await expect(field(page, "Adresse e-mail")).not.toHaveAttribute("aria-invalid", "true");
  await expect(field(page, "Service souhaité")).toHaveValue("one-to-one-course");
  await expect(fieldMessage(page, contactMessages.service)).toHaveCount(0);
  await expect(field(page, "Message (facultatif)")).toHaveValue(validRequest.message);
});

test("a valid post shows the confirmation", async ({ page }) => {
  await page.goto("/contact");
  await fillValidRequest(page);
  const answer = page.waitForResponse((response) => response.request().method() === "POST");
  await page.getByRole("button", { name: "Envoyer" }).click();
  expect((await answer).status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(contactMessages.successTitle);
  await expect(page.getByText(contactMessages.successText)).toBeVisible();
  await expect(page.getByRole("link", { name: "Retour à l’accueil" })).toHaveAttribute("href", "/");
  await expect(field(page, "Prénom")).toHaveCount(0);
});
