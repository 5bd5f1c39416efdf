import { Link, useNavigate, type Path } from "@remix-run/react";
import { useEffect, useRef, type RefObject } from "react";
import { TEAM_PHOTO_SIZE_PX } from "~/content/constants";
import type { TeamMember } from "~/content/team";
import { useHydrated } from "~/hooks/use-hydrated";

type CloseTo = Pick<Path, "pathname" | "search">;

/**
 * A member's details in a native <dialog>. The server renders it open (a plain
 * open dialog, so it shows without JavaScript and its close icon is a link);
 * once hydrated it becomes modal: focus moves in, Escape and a click on the
 * backdrop close it, and closing replaces the URL with one without ?member.
 */
export function TeamModal({ member, closeTo }: { member: TeamMember; closeTo: CloseTo }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const hydrated = useHydrated();
  useModalWhileMounted(dialog, hydrated, closeTo);
  const titleId = `team-modal-title-${member.slug}`;

  return (
    <>
      {hydrated ? null : (
        // Without JavaScript, a click outside lands on this full-screen link back.
        <Link to={closeTo} className="team-modal__scrim" aria-hidden="true" tabIndex={-1} aria-label="Close" />
      )}
      {/* Escape closes a modal dialog by itself; this click is the pointer's way to close from the backdrop. */}
      {/* eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions */}
      <dialog
        ref={dialog}
        className="team-modal"
        aria-labelledby={titleId}
        open={!hydrated}
        onClick={(event) => {
          // The content fills the dialog box, so a click on the dialog itself is on its backdrop.
          if (event.target === event.currentTarget) event.currentTarget.close();
        }}
      >
        <div className="team-modal__content">
          <Link to={closeTo} replace preventScrollReset className="team-modal__close" aria-label="Close">
            <svg aria-hidden="true" focusable="false" width="20" height="20" viewBox="0 0 20 20">
              <path d="M4 4l12 12M16 4L4 16" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" />
            </svg>
          </Link>
          {/* The modal's words name the member; the photo says it is theirs. */}
          {/* eslint-disable-next-line jsx-a11y/img-redundant-alt */}
          <img
            className="team-modal__photo"
            src={member.photo}
            alt={`Photo of ${member.name}`}
            width={TEAM_PHOTO_SIZE_PX}
            height={TEAM_PHOTO_SIZE_PX}
          />
          <div className="team-modal__text">
            <h2 id={titleId} className="team-modal__name">
              {member.name}
            </h2>
            <p className="team-modal__job">{member.job}</p>
            {member.bio ? <p className="team-modal__bio">{member.bio}</p> : null}
            {member.linkedin ? (
              <a className="team-modal__profile" href={member.linkedin} rel="noopener noreferrer external">
                <LinkedInIcon />
                LinkedIn profile<span className="visually-hidden"> of {member.name}</span>
              </a>
            ) : null}
          </div>
        </div>
      </dialog>
    </>
  );
}

/**
 * Shows the dialog as a modal once hydrated, and turns every native close
 * (Escape, backdrop) into a navigation to the URL without ?member.
 */
function useModalWhileMounted(dialog: RefObject<HTMLDialogElement>, hydrated: boolean, closeTo: CloseTo) {
  const navigate = useNavigate();
  const closeToRef = useRef(closeTo);
  useEffect(() => {
    closeToRef.current = closeTo;
  }, [closeTo]);

  useEffect(() => {
    const element = dialog.current;
    if (!hydrated || !element) return;
    if (!element.open) element.showModal();

    const onClose = () => {
      // A close event left over from the server-rendered open state arrives while the modal is open.
      if (element.open) return;
      navigate(closeToRef.current, { replace: true, preventScrollReset: true });
    };
    element.addEventListener("close", onClose);
    return () => element.removeEventListener("close", onClose);
  }, [dialog, hydrated, navigate]);
}

function LinkedInIcon() {
  return (
    <svg aria-hidden="true" focusable="false" width="20" height="20" viewBox="0 0 24 24" className="team-modal__icon">
      <rect width="24" height="24" rx="4" fill="currentColor" />
      <path
        fill="#fff"
        d="M6.9 9.6h2.6V18H6.9zM8.2 5.5a1.5 1.5 0 1 1 0 3 1.5 1.5 0 0 1 0-3zM11.1 9.6h2.5v1.2c.4-.7 1.2-1.4 2.6-1.4 2.7 0 3.2 1.8 3.2 4.1V18h-2.6v-4c0-1 0-2.2-1.3-2.2s-1.6 1-1.6 2.1V18h-2.6z"
      />
    </svg>
  );
}
