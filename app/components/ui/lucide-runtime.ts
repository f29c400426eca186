/**
 * A small stand-in for lucide-react's `createLucideIcon` (decision 007).
 *
 * The icons are still imported one by one from lucide-react
 * (`lucide-react/icons/<name>`), with lucide's own drawing data; the build
 * (vite.config.ts, `lucideRuntime`) points their import of
 * `../createLucideIcon.mjs` here. lucide-react's runtime (context, class
 * helpers, absolute and non-scaling strokes: about 2 KB gzip) is not needed
 * by this site. The `<svg>` rendered is the same as lucide-react's for the
 * props used here: same attributes in the same order, same classes,
 * `aria-hidden="true"` unless an aria-*, role or title prop or children are
 * given.
 */
import { createElement, type ReactNode, type SVGProps } from "react";

/** lucide's data for one icon: name, aliases and SVG child nodes. */
type IconData = {
  name: string;
  size?: number;
  aliases?: string[];
  node: [string, Record<string, string>][];
};

type IconProps = SVGProps<SVGSVGElement> & {
  size?: number | string;
  children?: ReactNode;
};

/** Whether the props give the icon an accessible role or name (lucide's `hasA11yProp`). */
const hasA11yProp = (props: Record<string, unknown>) =>
  Object.keys(props).some(
    (prop) => (prop.startsWith("aria-") || prop === "role" || prop === "title") && props[prop] != null,
  );

/** Makes the React component of one lucide icon from its data. */
export default function createLucideIcon(icon: IconData) {
  const iconClasses = ["lucide", `lucide-${icon.name}`, ...(icon.aliases ?? []).map((alias) => `lucide-${alias}`)];
  const box = icon.size ?? 24;
  /** The icon as an inline `<svg>`, drawn with the current text colour. */
  function LucideIcon({ size, width, height, color, strokeWidth, className = "", children, ...rest }: IconProps) {
    const classes = [...new Set([...iconClasses, ...className.split(/\s+/)])].filter(Boolean).join(" ");
    return createElement(
      "svg",
      {
        xmlns: "http://www.w3.org/2000/svg",
        width: width ?? size ?? 24,
        height: height ?? size ?? 24,
        viewBox: `0 0 ${box} ${box}`,
        fill: "none",
        stroke: color || "currentColor",
        strokeWidth: strokeWidth ?? 2,
        strokeLinecap: "round",
        strokeLinejoin: "round",
        className: classes,
        ...(children || hasA11yProp(rest) ? {} : { "aria-hidden": "true" }),
        ...rest,
      },
      [
        ...icon.node.map(([tag, attributes]) => createElement(tag, attributes)),
        ...(Array.isArray(children) ? children : [children]),
      ],
    );
  }
  LucideIcon.displayName = icon.name;
  return LucideIcon;
}
