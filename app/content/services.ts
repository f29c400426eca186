/**
 * Copy of the `#services` section: the three service cards with their prices,
 * the device badges with their tooltip hints, and the section's headings and
 * "Zones d’intervention" banner. Comes from spec section 2 ("Home sections",
 * services), section 3 ("Service card", "Service choices") and section 9
 * ("Services").
 */
import type { PricedService, PricesSettings } from "./shapes";
import { typesetAll } from "~/utils/typography";
import type { Service } from "./types";

/**
 * The three service cards as the site ships them, in display order; ids match the contact form's
 * service choices. Their prices are the defaults: the pages show `servicesWith(settings.prices)`.
 */
export const services: Service[] = /* @__PURE__ */ typesetAll([
  {
    id: "small-group",
    title: "Cours en petit groupe et rencontres Digiware",
    description:
      "Apprenez à plusieurs, dans une ambiance conviviale. Entre amis ou entre voisins, une rencontre Digiware fait de l’apprentissage un moment agréable.",
    picture: "service-group",
    features: [
      "8 personnes au maximum",
      "2h par séance",
      "Un thème approfondi à chaque séance",
      "Chacun apporte son propre appareil",
    ],
    price: { chf: 55, per: "séance" },
    priceNote: "Groupes de 4 à 8 personnes, 2h par séance",
    color: "primary",
  },
  {
    id: "one-to-one-course",
    title: "Cours individuel",
    description:
      "Un cours rien que pour vous, à votre rythme. Je viens chez vous ou nous nous retrouvons dans un centre, comme vous le préférez.",
    picture: "service-individual",
    features: [
      "À domicile ou dans un centre",
      "Un programme adapté à vos besoins",
      "Sur vos propres appareils",
      "Un aide-mémoire écrit, étape par étape",
    ],
    price: { chf: 95, per: "heure" },
    priceNote: "À domicile ou dans un centre",
    color: "secondary",
  },
  {
    id: "one-to-one-support",
    title: "Support individuel",
    description:
      "Un souci avec votre ordinateur ou votre smartphone? Je vous aide par téléphone ou je prends la main sur votre ordinateur à distance, avec votre accord.",
    picture: "service-remote",
    features: [
      "Aide par téléphone",
      "Prise en main à distance de votre ordinateur",
      "Une solution rapide à un problème précis",
      "Des conseils pour éviter que le problème revienne",
    ],
    price: { chf: 70, per: "heure" },
    priceNote: "Par téléphone ou à distance, sans déplacement",
    color: "accent",
  },
]);

/** The device badges, in display order, each with the hint shown in its tooltip. */
export const devices: { name: string; hint: string }[] = /* @__PURE__ */ typesetAll([
  { name: "Windows PC", hint: "Ordinateurs sous Windows 10 et 11" },
  { name: "Mac", hint: "Ordinateurs portables et de bureau Apple" },
  { name: "Android", hint: "Smartphones et tablettes Android" },
  { name: "Samsung", hint: "Smartphones et tablettes Samsung Galaxy" },
  { name: "iPhone", hint: "iPhone et iPad d’Apple" },
]);

/** Headings and fixed lines of the `#services` section. */
export const servicesSection = /* @__PURE__ */ typesetAll({
  title: "Mes services",
  intro:
    "En groupe, en cours individuel ou pour une aide ponctuelle, je m’adapte à votre rythme et à vos besoins. Les tarifs sont clairs, sans surprise.",
  zonesBanner: "Zones d’intervention : Vaud • Genève • Fribourg",
  devicesTitle: "J’interviens sur tous vos appareils",
});

/** The prices the site ships with, by service id (`services`). */
export const defaultPrices = Object.fromEntries(
  services.map((service) => [service.id, service.price.chf]),
) as PricesSettings;

/** The service cards with the owner's prices (Réglages, `/admin/reglages`). */
export function servicesWith(prices: PricesSettings): Service[] {
  return services.map((service) => ({
    ...service,
    price: { ...service.price, chf: prices[service.id as PricedService] ?? service.price.chf },
  }));
}
