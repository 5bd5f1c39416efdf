/**
 * Whether a configured secret (SESSION_SECRET, AUDIT_KEY, DATA_KEY) is one an attacker would try
 * first: one character over and over, a short pattern repeated, too few distinct characters, or a
 * secret made mostly of common passwords, runs like "abcd" or "1234", and the words people put in
 * placeholder secrets ("this is my secret session key"). A random hex or base64 string of the
 * required length always passes: each rule sits far below what chance gives such a string.
 *
 * A general strength estimator (zxcvbn) would also know English words, but its dictionaries add
 * about 140 MB to the process for a check made once at start.
 */
import commonPasswords from "~/data/common-passwords.json";
import { SECRET_MIN_LENGTH } from "./env.server";

/** 32 random hex characters show 6 or more distinct ones all but always (fewer: about 1 in 10^12). */
const MIN_DISTINCT_CHARACTERS = 6;
/** What must be left of a secret once every common word and run in it is taken out. */
const MIN_LENGTH_BEYOND_WORDS = 16;
/** Ten characters repeating those a period before: in a random hex string, about 1 in 10^9. */
const REPEAT_MIN = 10;
/** A run of this many characters in alphabet or keyboard order ("abcd", "4321") counts as no secret. */
const RUN_LENGTH = 4;

/** The words placeholder secrets are made of, beyond the common passwords (all of 8 letters or more). */
const PLACEHOLDER_WORDS = [
  "secret",
  "session",
  "sessions",
  "audit",
  "data",
  "key",
  "keys",
  "token",
  "cookie",
  "sign",
  "signing",
  "password",
  "passphrase",
  "change",
  "changeme",
  "replace",
  "default",
  "example",
  "sample",
  "placeholder",
  "test",
  "testing",
  "dev",
  "development",
  "local",
  "localhost",
  "prod",
  "production",
  "staging",
  "admin",
  "app",
  "portal",
  "server",
  "this",
  "that",
  "is",
  "my",
  "our",
  "your",
  "the",
  "for",
  "and",
  "of",
  "a",
  "an",
  "very",
  "super",
  "long",
  "random",
  "string",
  "value",
  "here",
  "please",
  "set",
  "not",
  "real",
];

let words: string[] | undefined;

/** Why `secret` is weak, in a phrase that follows the setting's name; null when it is not. */
export function secretWeakness(secret: string): string | null {
  if (secret.length < SECRET_MIN_LENGTH) return `is too short: use at least ${SECRET_MIN_LENGTH} random characters`;
  if (new Set(secret).size === 1) return "is one character repeated";
  if (repeatsAShortPattern(secret)) return "repeats a pattern";
  if (new Set(secret).size < MIN_DISTINCT_CHARACTERS) return "uses too few different characters";
  if (lengthBeyondWordsAndRuns(secret) < MIN_LENGTH_BEYOND_WORDS) return "is made of common words or sequences";
  return null;
}

/**
 * "abcabcabc…", or a pattern repeated over most of the secret with a few characters around it
 * ("letmeinletmeinletmein42", "wordwordword…word"): a stretch of at least REPEAT_MIN characters
 * equal to those a period before, which with that period covers three quarters of the secret.
 */
function repeatsAShortPattern(secret: string): boolean {
  for (let period = 1; period < secret.length - REPEAT_MIN; period++) {
    let run = 0;
    for (let i = period; i < secret.length; i++) {
      run = secret[i] === secret[i - period] ? run + 1 : 0;
      if (run >= REPEAT_MIN && run + period >= secret.length * 0.75) return true;
    }
  }
  return false;
}

/** The characters left once runs, then common passwords and placeholder words (ignoring case), are cut out. */
function lengthBeyondWordsAndRuns(secret: string): number {
  words ??= [...(commonPasswords as string[]), ...PLACEHOLDER_WORDS].sort((a, b) => b.length - a.length);
  let rest = withoutRuns(secret.toLowerCase());
  for (const word of words) if (rest.includes(word)) rest = rest.split(word).join("");
  return rest.length;
}

/** The text without its runs of RUN_LENGTH or more characters whose codes go up or down by one. */
function withoutRuns(text: string): string {
  let kept = "";
  let start = 0;
  while (start < text.length) {
    let end = start + 1;
    const step = text.charCodeAt(end) - text.charCodeAt(start);
    if (step === 1 || step === -1) {
      while (end < text.length && text.charCodeAt(end) - text.charCodeAt(end - 1) === step) end += 1;
    }
    if (end - start >= RUN_LENGTH) start = end;
    else {
      kept += text[start];
      start += 1;
    }
  }
  return kept;
}
