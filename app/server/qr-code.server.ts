import QRCode from "qrcode";

/**
 * A QR code as SVG markup, drawn on the server so the authenticator app's set-up needs no script.
 * Only paths with fill and stroke attributes: no inline style for the CSP to refuse.
 */
export function qrCodeSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
}
