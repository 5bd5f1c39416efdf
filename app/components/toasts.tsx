import { useLocation } from "@remix-run/react";
import { useEffect, useState, type ComponentType } from "react";

type ToastMessage = { message: string; type: "info" | "success" | "error" | "warning" };

/**
 * Notices appear as react-toastify toasts with JavaScript, and as a status
 * line in the page without it. react-toastify (and the styles it injects) is
 * fetched as a chunk of its own the first time a notice arrives, so pages
 * without one never download it. The server renders the status line, and it
 * stays until the toaster has taken over: without JavaScript, before
 * hydration, and if the chunk cannot be fetched.
 */
export function Toasts({ toast }: { toast: ToastMessage | null }) {
  const [Toaster, setToaster] = useState<ComponentType | null>(null);
  const location = useLocation();

  useEffect(() => {
    if (!toast) return;
    import("./toaster").then((toaster) => {
      toaster.showToast(toast);
      setToaster(() => toaster.Toaster);
    });
  }, [toast]);

  return Toaster ? (
    <Toaster />
  ) : toast ? (
    <div className={`status-line status-line--${toast.type}`}>
      <p role={toast.type === "error" ? "alert" : "status"}>{toast.message}</p>
      {/* The notice was read from a one-time cookie: the same page again comes without it, no script needed. */}
      <a className="status-line__dismiss" href={`${location.pathname}${location.search}`} aria-label="Dismiss notice">
        ×
      </a>
    </div>
  ) : null;
}
