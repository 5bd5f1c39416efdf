import { Link } from "@remix-run/react";
import { recoveryCodesPage } from "~/content/second-factor";

/** The ten recovery codes, shown once, right after they are made. */
export function RecoveryCodes({ codes, continueTo }: { codes: string[]; continueTo: string }) {
  return (
    <section className="recovery-codes" aria-labelledby="recovery-codes-heading">
      <h2 id="recovery-codes-heading">{recoveryCodesPage.heading}</h2>
      <p>{recoveryCodesPage.intro}</p>
      <ul className="recovery-codes__list">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <p>
        <Link to={continueTo} className="button">
          {recoveryCodesPage.continue}
        </Link>
      </p>
    </section>
  );
}
