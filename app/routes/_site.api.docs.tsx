import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { apiDocsPage as page } from "~/content/api-docs";
import { openApiDocument } from "~/http/openapi.server";
import { pageMeta } from "~/lib/meta";
import apiDocsStyles from "~/styles/api-docs.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: apiDocsStyles }];

export const meta: MetaFunction = () => pageMeta(page.title, page.description);

type Schema = { $ref?: string; [key: string]: unknown };
type OperationView = {
  id: string;
  method: string;
  path: string;
  summary: string;
  tag: string;
  security: string[];
  parameters: { name: string; in: string; required: boolean; description: string; schema: Schema }[];
  body?: { required: boolean; schema: Schema };
  responses: { status: string; description: string; schema: Schema; headers: string[] }[];
};

/** The document, read as a page: rendered on the server, so it needs no script and no renderer from elsewhere. */
export function loader() {
  // The document never changes while the server runs: neither does its view.
  view ??= documentView();
  return view;
}

let view: ReturnType<typeof documentView> | undefined;

function documentView() {
  const document = openApiDocument();
  const operations: OperationView[] = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => {
      const o = operation as {
        operationId: string;
        summary: string;
        tags: string[];
        security: Record<string, string[]>[];
        parameters?: OperationView["parameters"];
        requestBody?: { required: boolean; content: { "application/json": { schema: Schema } } };
        responses: Record<
          string,
          {
            description: string;
            headers?: Record<string, unknown>;
            content: { "application/json": { schema: Schema } };
          }
        >;
      };
      return {
        id: o.operationId,
        method: method.toUpperCase(),
        path,
        summary: o.summary,
        tag: o.tags[0],
        security: o.security.map((requirement) => Object.keys(requirement)[0] ?? "none"),
        parameters: (o.parameters ?? []).map((parameter) => ({
          ...parameter,
          description: parameter.description ?? "",
        })),
        body: o.requestBody && {
          required: o.requestBody.required,
          schema: o.requestBody.content["application/json"].schema,
        },
        responses: Object.entries(o.responses).map(([status, response]) => ({
          status,
          description: response.description,
          schema: response.content["application/json"].schema,
          headers: Object.keys(response.headers ?? {}),
        })),
      };
    }),
  );
  return {
    title: document.info.title,
    version: document.info.version,
    description: document.info.description,
    tags: document.tags,
    operations,
    securitySchemes: Object.entries(document.components.securitySchemes).map(([name, scheme]) => ({
      name,
      description: String(scheme.description),
    })),
    shapes: Object.entries(document.components.schemas).map(([name, schema]) => ({
      name,
      text: JSON.stringify(schema, null, 2),
    })),
  };
}

/** The document's prose marks code with backticks, as Markdown does: shown here as code. */
function Prose({ text }: { text: string }) {
  return <>{text.split("`").map((part, index) => (index % 2 === 1 ? <code key={index}>{part}</code> : part))}</>;
}

/** A parameter's schema without the words already shown beside it. */
function constraintsOf(schema: Schema) {
  const { description: _description, deprecated: _deprecated, ...constraints } = schema;
  return JSON.stringify(constraints);
}

const anchorOf = (ref: string) => `schema-${ref.split("/").pop()}`;

function SchemaLink({ schema }: { schema: Schema }) {
  if (schema.$ref) {
    const name = schema.$ref.split("/").pop();
    return <a href={`#${anchorOf(schema.$ref)}`}>{name}</a>;
  }
  return <code>{JSON.stringify(schema)}</code>;
}

function Operation({ operation }: { operation: OperationView }) {
  const who = operation.security.filter((name) => name !== "none").map((name) => page.security[name] ?? name);
  return (
    <section className="api-call" aria-labelledby={`call-${operation.id}`}>
      <h3 id={`call-${operation.id}`}>
        <code>
          <span className="api-call__method">{operation.method}</span> {operation.path}
        </code>
      </h3>
      <p>
        <Prose text={operation.summary} />
      </p>
      <p>
        <span className="prose__label">{page.authentication}:</span> {who.length > 0 ? who.join(" or ") : page.anyone}
      </p>
      {operation.parameters.length > 0 ? (
        <div className="api-table">
          <table>
            <caption>{page.parameters}</caption>
            <thead>
              <tr>
                <th scope="col">{page.columns.name}</th>
                <th scope="col">{page.columns.where}</th>
                <th scope="col">{page.columns.required}</th>
                <th scope="col">{page.columns.description}</th>
              </tr>
            </thead>
            <tbody>
              {operation.parameters.map((parameter) => (
                <tr key={parameter.name}>
                  <th scope="row">
                    <code>{parameter.name}</code>
                  </th>
                  <td>{parameter.in}</td>
                  <td>{parameter.required ? page.yes : page.no}</td>
                  <td>
                    <Prose text={parameter.description || String(parameter.schema.description ?? "")} />{" "}
                    <code>{constraintsOf(parameter.schema)}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {operation.body ? (
        <p>
          <span className="prose__label">{page.requestBody}:</span> <SchemaLink schema={operation.body.schema} />
          {operation.body.required ? null : ` (${page.optionalBody})`}
        </p>
      ) : null}
      <div className="api-table">
        <table>
          <caption>{page.responses}</caption>
          <thead>
            <tr>
              <th scope="col">{page.columns.status}</th>
              <th scope="col">{page.columns.description}</th>
              <th scope="col">{page.columns.body}</th>
              <th scope="col">{page.columns.headers}</th>
            </tr>
          </thead>
          <tbody>
            {operation.responses.map((response) => (
              <tr key={response.status}>
                <th scope="row">{response.status}</th>
                <td>
                  <Prose text={response.description} />
                </td>
                <td>
                  <SchemaLink schema={response.schema} />
                </td>
                <td>{response.headers.join(", ")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

export default function ApiDocsPage() {
  const data = useLoaderData<typeof loader>();
  return (
    <article className="section prose api-docs">
      <h1>{page.heading}</h1>
      <p>
        {data.title}, {data.version}. <Prose text={data.description} />
      </p>
      <p>
        {page.documentLead} <a href="/api/openapi.json">{page.documentLink}</a>
        {page.documentTail}
      </p>
      <h2>{page.authentication}</h2>
      <ul>
        {data.securitySchemes.map((scheme) => (
          <li key={scheme.name}>
            <span className="prose__label">{page.security[scheme.name] ?? scheme.name}:</span>{" "}
            <Prose text={scheme.description} />
          </li>
        ))}
      </ul>
      {data.tags.map((tag) => (
        <section key={tag.name} aria-labelledby={`tag-${tag.name}`}>
          <h2 id={`tag-${tag.name}`}>{tag.name}</h2>
          <p>{tag.description}</p>
          {data.operations
            .filter((operation) => operation.tag === tag.name)
            .map((operation) => (
              <Operation key={operation.id} operation={operation} />
            ))}
        </section>
      ))}
      <h2>{page.shapes}</h2>
      {data.shapes.map((shape) => (
        <section key={shape.name} aria-labelledby={anchorOf(shape.name)}>
          <h3 id={anchorOf(shape.name)}>{shape.name}</h3>
          <pre>
            <code>{shape.text}</code>
          </pre>
        </section>
      ))}
    </article>
  );
}
