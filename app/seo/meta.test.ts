/**
 * `loaderMeta` names the root loader's site share image (the card of the
 * owner's hero photo) wherever a page declares `public/og/site.png`, and
 * leaves a page's own image alone (issue 33, item 13).
 */
import { describe, expect, it } from "vitest";
import { loaderMeta, SITE_SHARE_IMAGE_PATH } from "./meta";

const site = "https://example.ch";
const card = "/og/site/0123456789ab.png";
const tags = (image: string) => [
  { title: "Questions" },
  { property: "og:image", content: `${site}${image}` },
  { name: "twitter:image", content: `${site}${image}` },
  { "script:ld+json": { "@graph": [{ "@type": "ProfessionalService", image: `${site}${image}` }] } },
];
const matches = (shareImagePath: string) => [{ id: "root", loaderData: { shareImagePath } }];

describe("loaderMeta", () => {
  it("names the card of the hero photo in place of the repository's image", () => {
    expect(loaderMeta({ data: { meta: tags(SITE_SHARE_IMAGE_PATH) }, matches: matches(card) })).toEqual(tags(card));
  });

  it("keeps an article's own image, and the repository's image when the root names it", () => {
    const article = tags("/og/articles/le-wi-fi-0123456789ab.png");
    expect(loaderMeta({ data: { meta: article }, matches: matches(card) })).toEqual(article);
    const builtIn = tags(SITE_SHARE_IMAGE_PATH);
    expect(loaderMeta({ data: { meta: builtIn }, matches: matches(SITE_SHARE_IMAGE_PATH) })).toEqual(builtIn);
    expect(loaderMeta({ data: { meta: builtIn } })).toEqual(builtIn);
  });
});
