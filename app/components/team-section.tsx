import { Link, useLocation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { TEAM_PHOTO_SIZE_PX } from "~/content/constants";
import type { TeamMember } from "~/content/team";
import teamStyles from "~/styles/team.css";
import { TeamModal } from "./team-modal";

/** The team stylesheet, for the `links` of any route that renders TeamSection. */
export const teamLinks = [{ rel: "stylesheet", href: teamStyles }];

const MEMBER_PARAM = "member";

/**
 * WHO WE ARE: a card per member, each a link to ?member=<slug> on the current
 * page, and the modal of the member named there. The URL is the modal's only
 * state, so it opens and closes without JavaScript and on any page. The
 * members come from the route's loader (app/content/team.ts stays on the
 * server), so their biographies travel as data, not as script.
 */
export function TeamSection({ members, headingLevel = 2 }: { members: readonly TeamMember[]; headingLevel?: 1 | 2 }) {
  const { pathname, search } = useLocation();
  const params = new URLSearchParams(search);
  const slug = params.get(MEMBER_PARAM);
  const member = members.find((each) => each.slug === slug);
  useFocusCardAfterModalCloses(member?.slug);

  const Heading = headingLevel === 1 ? "h1" : "h2";
  const NameHeading = headingLevel === 1 ? "h2" : "h3";

  return (
    <section className="team section" aria-labelledby="team-heading">
      <Heading id="team-heading" className="team__heading">
        WHO WE ARE
      </Heading>
      <ul className="team__grid" aria-label="Team members">
        {members.map((each) => (
          <li key={each.slug}>
            <article className="team-card">
              <img
                className="team-card__photo"
                src={each.photo}
                alt=""
                width={TEAM_PHOTO_SIZE_PX}
                height={TEAM_PHOTO_SIZE_PX}
                loading="lazy"
              />
              <NameHeading className="team-card__name">
                <Link
                  id={cardLinkId(each)}
                  className="team-card__link"
                  to={{ pathname, search: withParam(params, MEMBER_PARAM, each.slug) }}
                  preventScrollReset
                >
                  {each.name}
                </Link>
              </NameHeading>
              <p className="team-card__job">{each.job}</p>
            </article>
          </li>
        ))}
      </ul>
      {member ? (
        <TeamModal
          key={member.slug}
          member={member}
          closeTo={{ pathname, search: withParam(params, MEMBER_PARAM, null) }}
        />
      ) : null}
    </section>
  );
}

function cardLinkId(member: Pick<TeamMember, "slug">) {
  return `team-card-${member.slug}`;
}

function withParam(params: URLSearchParams, name: string, value: string | null) {
  const next = new URLSearchParams(params);
  if (value === null) next.delete(name);
  else next.set(name, value);
  const search = next.toString();
  return search ? `?${search}` : "";
}

/** When a modal closes, however it closed, focus goes back to the card that opened it. */
function useFocusCardAfterModalCloses(openSlug: string | undefined) {
  const previousSlug = useRef(openSlug);
  useEffect(() => {
    const closedSlug = previousSlug.current;
    previousSlug.current = openSlug;
    if (closedSlug && !openSlug) document.getElementById(cardLinkId({ slug: closedSlug }))?.focus();
  }, [openSlug]);
}
