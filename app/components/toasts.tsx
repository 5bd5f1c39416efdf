import { useEffect, useState, type ComponentType } from "react";
import { useHydrated } from "remix-utils/use-hydrated";

type ToastMessage = { message: string; type: "info" | "success" | "error" | "warning" };

/**
 * Notices appear as react-toastify toasts with JavaScript, and as a status
 * line in the page without it (the server renders it; hydration hides it).
 * react-toastify (and the styles it injects) is fetched as its own chunk the
 * first time a notice arrives, so pages without one never download it; if
 * that fetch fails, the notice falls back to the status line.
 */
export function Toasts({ toast }: { toast: ToastMessage | null }) {
  const hydrated = useHydrated();
  const [Toaster, setToaster] = useState<ComponentType | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (!toast) return;
    import("./toaster").then(
      (toaster) => {
        toaster.showToast(toast);
        setToaster(() => toaster.Toaster);
      },
      () => setFailed(true),
    );
  }, [toast]);

  return (
    <>
      {toast && (!hydrated || failed) ? (
        <p className={`status-line status-line--${toast.type}`} role={toast.type === "error" ? "alert" : "status"}>
          {toast.message}
        </p>
      ) : null}
      {Toaster ? <Toaster /> : null}
    </>
  );
}
