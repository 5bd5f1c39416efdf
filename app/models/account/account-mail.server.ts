/**
 * The account e-mails. They are sent in the background: the answer a visitor
 * gets must not wait on (or reveal, by its timing) which e-mail went out, and
 * a mail failure never changes it. A lost e-mail loses nothing: the account
 * and its state are stored first, and the link can always be sent again.
 */
import { accountSessionEmails } from "~/content/account-sessions";
import { administratorEmails } from "~/content/administrators";
import { accountEmails, operatorEmails, secondFactorEmails, type MailContent } from "~/content/emails";
import { myDataEmails } from "~/content/my-details";
import { getEnv } from "~/server/env.server";
import { log } from "~/server/log.server";
import { trySendMail } from "~/server/mail.server";

const pending = new Set<Promise<unknown>>();

function deliver(to: string, content: MailContent, kind: string) {
  const delivery = trySendMail({ to, ...content }).then((sent) => {
    if (!sent) log("warn", "account.mail_failed", { kind });
  });
  pending.add(delivery);
  void delivery.finally(() => pending.delete(delivery));
}

/** Resolves once every e-mail queued so far has been handed over (or failed): for tests and shutdown. */
export async function settleAccountMail() {
  while (pending.size > 0) await Promise.allSettled([...pending]);
}

/** Every link in an e-mail starts from APP_URL, never from the request's Host header. */
export function appLink(path: string) {
  return new URL(path, getEnv().appUrl).href;
}

export const accountMail = {
  verify(to: string, token: string) {
    deliver(to, accountEmails.verify(appLink(`/auth/verify/${token}`)), "verify");
  },
  alreadyRegistered(to: string) {
    deliver(
      to,
      accountEmails.alreadyRegistered({
        loginLink: appLink("/financing/login"),
        resetLink: appLink("/financing/forgotpassword"),
      }),
      "already_registered",
    );
  },
  resetPassword(to: string, token: string) {
    deliver(to, accountEmails.resetPassword(appLink(`/financing/resetpassword/${token}`)), "reset");
  },
  passwordChanged(to: string) {
    deliver(to, accountEmails.passwordChanged(appLink("/financing/login")), "password_changed");
  },
  passwordChangedSignedIn(to: string) {
    deliver(
      to,
      accountSessionEmails.passwordChanged({
        resetLink: appLink("/financing/forgotpassword"),
        sessionsLink: appLink("/financing/security/sessions"),
      }),
      "password_changed",
    );
  },
  secondFactorChanged(to: string, change: string) {
    deliver(to, secondFactorEmails.changed({ change, settingsLink: appLink("/financing/security") }), "second_factor");
  },
  recoveryCodeUsed(to: string, left: number) {
    deliver(to, secondFactorEmails.used({ left, settingsLink: appLink("/financing/security") }), "recovery_code");
  },
  codeStepLocked(to: string, minutes: number) {
    deliver(
      to,
      secondFactorEmails.codeStepLocked({ minutes, resetLink: appLink("/financing/forgotpassword") }),
      "code_step_locked",
    );
  },
  resetOnServer(to: string, secondFactorRemoved: boolean) {
    deliver(
      to,
      operatorEmails.resetOnServer({ loginLink: appLink("/financing/login"), secondFactorRemoved }),
      "reset_on_server",
    );
  },
  accountLocked(to: string, minutes: number) {
    deliver(to, accountEmails.accountLocked({ minutes, resetLink: appLink("/financing/forgotpassword") }), "locked");
  },
  dataDownloaded(to: string) {
    deliver(to, myDataEmails.downloaded({ securityLink: appLink("/financing/security") }), "data_downloaded");
  },
  administratorInvitation(to: string, inviter: string, token: string) {
    deliver(
      to,
      administratorEmails.invitation({ inviter, link: appLink(`/financing/invitation/${token}`) }),
      "admin_invitation",
    );
  },
  administratorInvitationRevoked(to: string, by: string) {
    deliver(to, administratorEmails.invitationRevoked({ by }), "admin_invitation_revoked");
  },
  administratorRemoved(to: string, by: string) {
    deliver(to, administratorEmails.removed({ by }), "admin_removed");
  },
  secondFactorReset(to: string, by: string) {
    deliver(to, administratorEmails.factorReset({ by, loginLink: appLink("/financing/login") }), "second_factor_reset");
  },
};
