import { describe, expect, it } from "vitest";
import { routeOf } from "./doors";

// The shape of a build's route tree: a root layout with a page that has an action and one that has none.
const tree = [
  {
    id: "root",
    path: "",
    hasAction: false,
    children: [
      { id: "routes/home", index: true, hasAction: false },
      { id: "routes/contact", path: "contact", hasAction: true, children: [] },
      { id: "routes/blog", path: "blog", hasAction: false, children: [] },
    ],
  },
] as unknown as Parameters<typeof routeOf>[0];

describe("routeOf", () => {
  it.each([
    "/contact",
    "/Contact",
    "/CONTACT/",
    "/%63ontact",
    "/./contact",
    "/blog/../contact",
    "/%2e/contact",
    "/contact.data",
    "/contact?index",
  ])("finds the contact route for %s, as React Router does", (url) => {
    expect(routeOf(tree, url)?.id).toBe("routes/contact");
  });

  it("finds the home page for / and /_root.data, nothing for unknown paths", () => {
    expect(routeOf(tree, "/")?.id).toBe("routes/home");
    expect(routeOf(tree, "/_root.data")?.id).toBe("routes/home");
    expect(routeOf(tree, "/nowhere")).toBeNull();
    expect(routeOf(tree, "/%")).toBeNull();
  });
});
