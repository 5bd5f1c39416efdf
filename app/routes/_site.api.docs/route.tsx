import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Fragment, type ReactNode } from "react";
import { apiDocsPage as page } from "~/content/api-docs";
import { pageMeta } from "~/lib/meta";
import { openApiView, type FieldView, type OperationView, type ShapeView } from "~/openapi/openapi-view.server";
import type { TypeWords } from "~/openapi/openapi-words.server";
import apiDocsStyles from "~/styles/api-docs.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: apiDocsStyles }];

export const meta: MetaFunction = () => pageMeta(page.title, page.description);

/** The document, read as a page: rendered on the server, so it needs no script and no renderer from elsewhere. */
export function loader() {
  return openApiView();
}

const callAnchor = (id: string) => `call-${id}`;
const shapeAnchor = (name: string) => `schema-${name}`;
const tagAnchor = (name: string) => `tag-${name}`;

/**
 * A link to a part of this page. With JavaScript, a plain `#anchor` link makes a history entry without the
 * router's key, which its scroll restoration mistakes for the entry before: the page jumps back to where the
 * previous link had left it. The router's own link makes an entry of its own. Without JavaScript it is a plain link.
 */
function InPageLink({ anchor, children }: { anchor: string; children: ReactNode }) {
  return <Link to={`#${anchor}`}>{children}</Link>;
}

/** The document's prose marks code with backticks, as Markdown does: shown here as code. */
function Prose({ text }: { text: string }) {
  return <>{text.split("`").map((part, index) => (index % 2 === 1 ? <code key={index}>{part}</code> : part))}</>;
}

/** A type in words: a named shape links to its fields, a value shows as code. */
function Words({ parts }: { parts: TypeWords }) {
  return (
    <>
      {parts.map((part, index) =>
        typeof part === "string" ? (
          part
        ) : "shape" in part ? (
          <InPageLink key={index} anchor={shapeAnchor(part.shape)}>
            {part.shape}
          </InPageLink>
        ) : (
          <code key={index}>{part.code}</code>
        ),
      )}
    </>
  );
}

/** A call's method and path; on a narrow screen the path breaks after a slash rather than inside a name. */
function CallName({ operation }: { operation: Pick<OperationView, "method" | "path"> }) {
  return (
    <code>
      <span className="api-call__method">{operation.method}</span>{" "}
      {operation.path.split("/").map((segment, index) => (
        <Fragment key={index}>
          {index > 0 ? (
            <>
              /<wbr />
            </>
          ) : null}
          {segment}
        </Fragment>
      ))}
    </code>
  );
}

function Contents({
  tags,
  operations,
  shapes,
}: {
  tags: { name: string }[];
  operations: OperationView[];
  shapes: ShapeView[];
}) {
  return (
    <nav className="api-contents" aria-labelledby="contents">
      <h2 id="contents">{page.contents}</h2>
      <ul>
        <li>
          <InPageLink anchor="authentication">{page.authentication}</InPageLink>
        </li>
        {tags.map((tag) => (
          <li key={tag.name}>
            <InPageLink anchor={tagAnchor(tag.name)}>{tag.name}</InPageLink>
            <ul>
              {operations
                .filter((operation) => operation.tag === tag.name)
                .map((operation) => (
                  <li key={operation.id}>
                    <InPageLink anchor={callAnchor(operation.id)}>
                      <CallName operation={operation} />
                    </InPageLink>
                  </li>
                ))}
            </ul>
          </li>
        ))}
        <li>
          <InPageLink anchor="shapes">{page.shapes}</InPageLink>
          <ul className="api-contents__shapes">
            {shapes.map((shape) => (
              <li key={shape.name}>
                <InPageLink anchor={shapeAnchor(shape.name)}>{shape.name}</InPageLink>
              </li>
            ))}
          </ul>
        </li>
      </ul>
    </nav>
  );
}

/** Fields or parameters, each with its type in words and its description: a list, so that it fits any width. */
function FieldList({ fields }: { fields: FieldView[] }) {
  return (
    <dl className="api-fields">
      {fields.map((field) => (
        <div key={field.name} className="api-fields__entry">
          <dt>
            <code>{field.name}</code>
            {field.required ? null : <span className="api-fields__mark">{page.optional}</span>}
            {field.deprecated ? <span className="api-fields__mark">{page.deprecated}</span> : null}
          </dt>
          <dd>
            <Words parts={field.type} />
          </dd>
          {field.example ? (
            <dd>
              {page.example}: <code>{field.example}</code>
            </dd>
          ) : null}
          {field.description ? (
            <dd>
              <Prose text={field.description} />
            </dd>
          ) : null}
        </div>
      ))}
    </dl>
  );
}

/** An example in its own box, which scrolls sideways on a narrow screen rather than the page. */
function Example({ id, title, callId, text }: { id: string; title: string; callId: string; text: string }) {
  return (
    <>
      <h4 id={id}>{title}</h4>
      {/* A box that may scroll takes the keyboard's focus, so that it can be scrolled without a pointer. */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex */}
      <div className="api-example" role="region" aria-labelledby={`${id} ${callAnchor(callId)}`} tabIndex={0}>
        <pre>
          <code>{text}</code>
        </pre>
      </div>
    </>
  );
}

function Operation({ operation }: { operation: OperationView }) {
  const who = operation.security.filter((name) => name !== "none").map((name) => page.security[name] ?? name);
  return (
    <section className="api-call" aria-labelledby={callAnchor(operation.id)}>
      <h3 id={callAnchor(operation.id)}>
        <CallName operation={operation} />
      </h3>
      <p>
        <span className="api-docs__label">{operation.summary}.</span> <Prose text={operation.description} />
      </p>
      <p>
        <span className="api-docs__label">{page.authentication}:</span>{" "}
        {who.length > 0 ? who.join(" or ") : page.anyone}
      </p>
      {operation.parameters.map((group) => (
        <Fragment key={group.in}>
          <h4>{page.parameters[group.in] ?? group.in}</h4>
          <FieldList fields={group.fields} />
        </Fragment>
      ))}
      {operation.body ? (
        <p>
          <span className="api-docs__label">{page.requestBody}:</span> <Words parts={operation.body.type} />
          {operation.body.required ? null : ` (${page.optionalBody})`}
        </p>
      ) : null}
      <Example
        id={`example-request-${operation.id}`}
        title={page.exampleRequest}
        callId={operation.id}
        text={operation.example.request}
      />
      <div className="api-table">
        <table>
          <caption>{page.responses}</caption>
          <thead>
            <tr>
              <th scope="col">{page.columns.status}</th>
              <th scope="col">{page.columns.answer}</th>
            </tr>
          </thead>
          <tbody>
            {operation.responses.map((response) => (
              <tr key={response.status}>
                <th scope="row">{response.status}</th>
                <td>
                  <Prose text={response.description} />
                  <span className="api-table__detail">
                    {page.body}: <Words parts={response.body} />
                  </span>
                  {response.headers.length > 0 ? (
                    <span className="api-table__detail">
                      {page.headers}: {response.headers.join(", ")}
                    </span>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Example
        id={`example-answer-${operation.id}`}
        title={page.exampleAnswer}
        callId={operation.id}
        text={operation.example.answer}
      />
    </section>
  );
}

function Shape({ shape }: { shape: ShapeView }) {
  return (
    <section className="api-shape" aria-labelledby={shapeAnchor(shape.name)}>
      <h3 id={shapeAnchor(shape.name)}>{shape.name}</h3>
      {shape.description ? (
        <p>
          <Prose text={shape.description} />
        </p>
      ) : null}
      {shape.type ? (
        <p>
          <span className="api-docs__label">{page.type}:</span> <Words parts={shape.type} />
        </p>
      ) : null}
      {shape.fields.length > 0 ? <FieldList fields={shape.fields} /> : null}
    </section>
  );
}

export default function ApiDocsPage() {
  const data = useLoaderData<typeof loader>();
  return (
    <article className="section api-docs">
      <h1>{page.heading}</h1>
      <p>
        {data.title}, {data.version}. <Prose text={data.description} />
      </p>
      <p>
        {page.documentLead} <a href="/api/openapi.json">{page.documentLink}</a>
        {page.documentTail}
      </p>
      <Contents tags={data.tags} operations={data.operations} shapes={data.shapes} />
      <h2 id="authentication">{page.authentication}</h2>
      <ul>
        {data.securitySchemes.map((scheme) => (
          <li key={scheme.name}>
            <span className="api-docs__label">{page.security[scheme.name] ?? scheme.name}:</span>{" "}
            <Prose text={scheme.description} />
          </li>
        ))}
      </ul>
      {data.tags.map((tag) => (
        <section key={tag.name} aria-labelledby={tagAnchor(tag.name)}>
          <h2 id={tagAnchor(tag.name)}>{tag.name}</h2>
          <p>{tag.description}</p>
          {data.operations
            .filter((operation) => operation.tag === tag.name)
            .map((operation) => (
              <Operation key={operation.id} operation={operation} />
            ))}
        </section>
      ))}
      <section aria-labelledby="shapes">
        <h2 id="shapes">{page.shapes}</h2>
        <p>{page.shapesLead}</p>
        {data.shapes.map((shape) => (
          <Shape key={shape.name} shape={shape} />
        ))}
      </section>
    </article>
  );
}
