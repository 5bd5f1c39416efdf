import { useEffect } from "react";
import { Bounce, toast as notify, ToastContainer } from "react-toastify";
import { useHydrated } from "remix-utils/use-hydrated";
import { TOAST_AUTO_CLOSE_MS } from "~/content/constants";

type ToastMessage = { message: string; type: "info" | "success" | "error" | "warning" };

/**
 * Notices appear as react-toastify toasts with JavaScript, and as a status
 * line in the page without it (the server renders it; hydration hides it).
 */
export function Toasts({ toast }: { toast: ToastMessage | null }) {
  const hydrated = useHydrated();

  useEffect(() => {
    if (toast) notify(toast.message, { type: toast.type });
  }, [toast]);

  return (
    <>
      {toast && !hydrated ? (
        <p className={`status-line status-line--${toast.type}`} role={toast.type === "error" ? "alert" : "status"}>
          {toast.message}
        </p>
      ) : null}
      <ToastContainer
        position="top-right"
        autoClose={TOAST_AUTO_CLOSE_MS}
        pauseOnHover
        pauseOnFocusLoss
        closeOnClick={false}
        closeButton
        draggable
        transition={Bounce}
      />
    </>
  );
}
