import { useEffect, useState, type ComponentProps } from "react";
import type { PasskeySignIn } from "./passkey-sign-in";

type Props = ComponentProps<typeof PasskeySignIn>;

/**
 * The passkey button, fetched once the page has hydrated: it needs the browser's WebAuthn anyway,
 * and most people sign in with a password, so its code stays out of the login page's first load.
 */
export function DeferredPasskeySignIn(props: Props) {
  const [Loaded, setLoaded] = useState<typeof PasskeySignIn | null>(null);
  useEffect(() => {
    let live = true;
    void import("./passkey-sign-in").then((module) => live && setLoaded(() => module.PasskeySignIn));
    return () => {
      live = false;
    };
  }, []);
  return Loaded ? <Loaded {...props} /> : null;
}
