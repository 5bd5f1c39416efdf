import { myDataContent } from "~/content/my-details";

/**
 * "Download my data" on the security page. A plain form, never a fetch: the browser itself receives the
 * file (with JavaScript or without). It opens with the page's other changes, once the user confirmed it is them.
 */
export function MyDataSection({ confirmed }: { confirmed: boolean }) {
  return (
    <section className="security-section" aria-labelledby="security-data">
      <h2 id="security-data">{myDataContent.heading}</h2>
      <p>{myDataContent.intro}</p>
      {confirmed ? (
        <form method="post" action="/financing/security/data" className="security-form">
          <button type="submit" className="button button--secondary">
            {myDataContent.download}
          </button>
        </form>
      ) : (
        <p>{myDataContent.confirmFirst}</p>
      )}
    </section>
  );
}
