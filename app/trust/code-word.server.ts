/**
 * Code words (issue 23, DESIGN.md section 9): two common French words
 * (« pomme rouge ») given to each contact request, callback request and
 * course registration, shown to the person (confirmation page, mail) and to
 * the owner (desk), who says it when he calls back so that the person knows
 * the call is real. It is a mark of recognition, never a secret: nothing is
 * unlocked or looked up with it.
 *
 * Chosen with `crypto.randomInt` (uniform, from the operating system's
 * generator) in `app/trust/code-words.ts`: about 2,600 pairs.
 */
import { randomInt } from "node:crypto";
import { CODE_ADJECTIVES, CODE_NOUNS } from "./code-words";

/** A new code word: a noun and an adjective of the shipped list, separated by one space. */
export function newCodeWord(pick: (max: number) => number = randomInt): string {
  return `${CODE_NOUNS[pick(CODE_NOUNS.length)]} ${CODE_ADJECTIVES[pick(CODE_ADJECTIVES.length)]}`;
}
