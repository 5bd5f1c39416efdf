import { useNavigate } from "@remix-run/react";
import { useEffect, useState } from "react";
import { verifyPage } from "~/content/account-pages/verify";
import { VERIFY_COUNTDOWN_SECONDS } from "~/content/constants";

/**
 * "Redirecting in 5..." ticking each second, then on to `to`. The server
 * renders the first number; without JavaScript a meta refresh (rendered by
 * the page inside <noscript>, so it never races this timer) does the move.
 */
export function VerifyCountdown({ to }: { to: string }) {
  const [seconds, setSeconds] = useState(VERIFY_COUNTDOWN_SECONDS);
  const navigate = useNavigate();

  useEffect(() => {
    const timer = window.setInterval(() => setSeconds((value) => Math.max(0, value - 1)), 1000);
    return () => window.clearInterval(timer);
  }, []);

  useEffect(() => {
    if (seconds === 0) navigate(to, { replace: true });
  }, [seconds, navigate, to]);

  return (
    <p className="verify-countdown" role="timer" aria-live="off">
      {verifyPage.redirecting(seconds)}
    </p>
  );
}

/** The no-JavaScript twin of the countdown: browsers only honour it when scripts are off. */
export function NoScriptRefresh({ to }: { to: string }) {
  return (
    <noscript>
      <meta httpEquiv="refresh" content={`${VERIFY_COUNTDOWN_SECONDS};url=${to}`} />
    </noscript>
  );
}
