import { Link } from "@remix-run/react";
import { investorStepsContent } from "~/content/investor-steps";
import { questionsContent } from "~/content/questions";

/** Beside the materials: the steps after them that the firm has turned on, and nothing of those it has not. */
export function AfterMaterialsLinks({
  shown,
}: {
  shown: { questions: boolean; qualification: boolean; interest: boolean };
}) {
  if (!shown.questions && !shown.qualification && !shown.interest) return null;
  return (
    <nav aria-label={investorStepsContent.navLabel} className="after-materials">
      <ul>
        {shown.questions ? (
          <li>
            <Link to="/financing/questions">{questionsContent.materialsLink}</Link>
          </li>
        ) : null}
        {shown.qualification ? (
          <li>
            <Link to="/financing/qualification">{investorStepsContent.qualification.link}</Link>
          </li>
        ) : null}
        {shown.interest ? (
          <li>
            <Link to="/financing/interest">{investorStepsContent.interest.link}</Link>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}
