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
    <p className={`status-line status-line--${toast.type}`} role={toast.type === "error" ? "alert" : "status"}>
      {toast.message}
    </p>
  ) : null;
}
