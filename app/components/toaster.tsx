import { Bounce, toast, ToastContainer, type TypeOptions } from "react-toastify";
import { TOAST_AUTO_CLOSE_MS } from "~/content/constants";

/**
 * react-toastify with the required settings (docs/requirements.md). Loaded on demand by Toasts (a dynamic
 * import, so it is a chunk of its own); it injects its own stylesheet.
 */
export function Toaster() {
  return (
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
  );
}

/** Queued by react-toastify until the container has mounted. */
export function showToast({ message, type }: { message: string; type: TypeOptions }) {
  toast(message, { type });
}
