/// <reference types="@remix-run/dev" />
/// <reference types="@remix-run/node" />

// Packages that ship no types of their own, typed as far as this project uses them.
declare module "on-headers" {
  import type { ServerResponse } from "node:http";
  export default function onHeaders(response: ServerResponse, listener: (this: ServerResponse) => void): void;
}
declare module "eslint-plugin-jsx-a11y" {
  import type { ESLint, Linter } from "eslint";
  const plugin: ESLint.Plugin & { flatConfigs: { recommended: Linter.Config } };
  export default plugin;
}
