// @ts-check
import js from "@eslint/js";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import { flatConfigs as importXConfigs } from "eslint-plugin-import-x";
import jsxA11y from "eslint-plugin-jsx-a11y";
import react from "eslint-plugin-react";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/**
 * The layers of app/ (docs/architecture.md): a module may import from its own layer and the
 * layers below it, never from one above. Each entry names a layer and the layers it must not reach.
 */
const layers = [
  { from: "app/content", above: ["routes", "http", "openapi", "components", "hooks", "models", "server", "lib"] },
  { from: "app/lib", above: ["routes", "http", "openapi", "components", "hooks", "models", "server"] },
  { from: "app/server", above: ["routes", "http", "openapi", "components", "hooks", "models"] },
  { from: "app/models", above: ["routes", "http", "openapi", "components", "hooks"] },
  { from: "app/openapi", above: ["routes", "http", "components", "hooks"] },
  { from: "app/http", above: ["routes", "components", "hooks"] },
  { from: "app/hooks", above: ["routes", "http", "openapi", "components", "models", "server"] },
  { from: "app/components", above: ["routes", "http", "openapi", "models", "server"] },
];

export default tseslint.config(
  {
    ignores: [
      "node_modules/",
      "build/",
      ".cache/",
      ".tmp/",
      ".tools/",
      "data/",
      "public/build/",
      "test-results/",
      "playwright-report/",
      "blob-report/",
      "tests/support/api-types.generated.ts",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  importXConfigs.recommended,
  importXConfigs.typescript,
  {
    languageOptions: {
      ecmaVersion: "latest",
      sourceType: "module",
      globals: { ...globals.node },
    },
    settings: {
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: "./tsconfig.json" })],
      "import-x/internal-regex": "^~/",
    },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true },
      ],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "import-x/order": [
        "error",
        {
          groups: ["builtin", "external", "internal", ["parent", "sibling", "index"]],
          "newlines-between": "never",
          alphabetize: { order: "asc", caseInsensitive: true },
        },
      ],
      "import-x/no-duplicates": ["error", { "prefer-inline": true }],
      "import-x/no-cycle": "error",
      "import-x/no-restricted-paths": [
        "error",
        {
          zones: layers.flatMap(({ from, above }) =>
            above.map((layer) => ({
              target: `./${from}`,
              from: `./app/${layer}`,
              message: `${from} sits below app/${layer}: imports only run downward (docs/architecture.md).`,
            })),
          ),
        },
      ],
      // The typescript resolver already fails an unresolved import at typecheck; these duplicate it slowly.
      "import-x/no-unresolved": "off",
      "import-x/named": "off",
      "import-x/namespace": "off",
      "import-x/default": "off",
      "import-x/no-named-as-default-member": "off",
    },
  },
  {
    files: ["app/**/*.{ts,tsx}"],
    ...react.configs.flat.recommended,
    ...react.configs.flat["jsx-runtime"],
    plugins: { react, "react-hooks": reactHooks, "jsx-a11y": jsxA11y },
    languageOptions: {
      ...react.configs.flat.recommended.languageOptions,
      globals: { ...globals.browser, ...globals.node },
    },
    settings: {
      react: { version: "detect" },
      formComponents: ["Form"],
      linkComponents: [{ name: "Link", linkAttribute: "to" }],
    },
    rules: {
      ...react.configs.flat.recommended.rules,
      ...react.configs.flat["jsx-runtime"].rules,
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      "react/prop-types": "off",
    },
  },
  {
    files: ["**/*.js"],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);
