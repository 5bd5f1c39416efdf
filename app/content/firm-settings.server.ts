/**
 * The firm's settings as the server reads them from its environment (app/content/firm.ts says which they are).
 * Kept out of the browser's scripts: every page carries the values themselves (root.tsx), so the placeholders
 * and the reading of them are shipped to no one.
 */
import type { FirmSettings } from "./firm";

/** Each setting's environment variable, and the placeholder shown while it is unset. */
export const firmSettingVariables = {
  FIRM_NAME: "Northbeam Securities LLC",
  FIRM_SHORT_NAME: "Northbeam",
  ATS_NAME: "Northbeam ATS",
  PARENT_COMPANY: "Northbeam Holdings Inc.",
  CONTACT_EMAIL: "info@northbeam.example",
  INSTITUTIONAL_EMAIL: "",
  INVESTORS_EMAIL: "",
  SOCIAL_LABEL: "Follow us on LinkedIn",
  SOCIAL_URL: "https://www.linkedin.com/",
  OPERATING_START: "the fourth quarter of 2025",
} as const;

type FirmSettingVariable = keyof typeof firmSettingVariables;

/** The firm's settings from an environment; the separate mailboxes default to CONTACT_EMAIL. */
export function firmSettingsFrom(env: Record<string, string | undefined>): FirmSettings {
  const setting = (name: FirmSettingVariable) => env[name]?.trim() || firmSettingVariables[name];
  const info = setting("CONTACT_EMAIL");
  return {
    name: setting("FIRM_NAME"),
    shortName: setting("FIRM_SHORT_NAME"),
    atsName: setting("ATS_NAME"),
    parentCompany: setting("PARENT_COMPANY"),
    mailboxes: {
      info,
      institutional: env.INSTITUTIONAL_EMAIL?.trim() || info,
      investors: env.INVESTORS_EMAIL?.trim() || info,
    },
    social: { label: setting("SOCIAL_LABEL"), url: setting("SOCIAL_URL") },
    operatingStart: setting("OPERATING_START"),
  };
}

/** The settings variables still unset: a launch shows placeholders where they are used. */
export function unsetFirmSettings(env: Record<string, string | undefined>): FirmSettingVariable[] {
  return (Object.keys(firmSettingVariables) as FirmSettingVariable[]).filter(
    (name) => firmSettingVariables[name] !== "" && !env[name]?.trim(),
  );
}
