#!/usr/bin/env bash
# How the site's media placeholders were made, kept for the record: the firm
# replaces them with its own (see `placeholders` in app/content/firm.ts). Not
# run at build time. Needs ffmpeg (libx264, libwebp) and Node; no network.
# Run from the project root: bash scripts/make-assets.sh
set -euo pipefail
cd "$(dirname "$0")/.."

FIRM_NAME="Northbeam Securities LLC" # PLACEHOLDER, as firm.name in app/content/firm.ts
mkdir -p public/images public/video public/pdfs private

# --- The hero's look: two soft lights drifting over the brand blues, and two
# faint waves. Every term is periodic in T with period D, so the video loops
# without a seam and its first frame is the poster.
D=8
brand_look() {
  local a="exp(-(pow(X/W-0.30-0.12*sin(2*PI*T/$D),2)+pow(Y/H-0.40-0.10*cos(2*PI*T/$D),2))/0.07)"
  local b="exp(-(pow(X/W-0.72+0.10*cos(2*PI*T/$D),2)+pow(Y/H-0.62+0.12*sin(2*PI*T/$D),2))/0.05)"
  local l="(exp(-pow(Y/H-0.72-0.05*sin(2*PI*(1.3*X/W+T/$D)),2)/0.00025)+0.6*exp(-pow(Y/H-0.80-0.04*sin(2*PI*(0.9*X/W-T/$D)+1),2)/0.00018))"
  echo "geq=r='7+12*X/W+35*$a+6*$b+40*$l':g='36+22*X/W+55*$a+70*$b+55*$l':b='92+45*X/W+95*$a+10*$b+60*$l'"
}

# Computed at a quarter of the size and scaled up: the picture is all soft
# gradients, and geq is slow per pixel.
poster() { # width height out-width out-height file
  ffmpeg -hide_banner -loglevel error -y -f lavfi -i "nullsrc=s=$1x$2:r=1:d=1" \
    -vf "$(brand_look),scale=$3:$4:flags=bicubic" -frames:v 1 -c:v libwebp -preset picture -quality 90 "$5"
}
poster 640 360 1600 900 public/images/hero-poster.webp
# Narrow screens show the hero in portrait, so their poster is drawn in portrait.
poster 375 500 750 1000 public/images/hero-poster-narrow.webp

# Muted, looping hero and /introvideo video: H.264, yuv420p, no audio track,
# moov atom first (faststart) so it starts playing while it downloads.
ffmpeg -hide_banner -loglevel error -y -f lavfi -i "nullsrc=s=640x360:r=24:d=$D" \
  -vf "$(brand_look),scale=1280:720:flags=bicubic" \
  -c:v libx264 -preset slow -crf 24 -profile:v high -pix_fmt yuv420p -movflags +faststart -an \
  public/video/introvideo.mp4

# --- The investor video placeholder: a different look (slow teal rings on
# slate) and a caption that says what it is.
R="0.5+0.5*sin(2*PI*(hypot(X/W-0.5,(Y/H-0.5)*H/W)*4-T/$D))"
ffmpeg -hide_banner -loglevel error -y -f lavfi -i "nullsrc=s=640x360:r=24:d=$D" \
  -vf "geq=r='15+10*($R)':g='40+50*($R)':b='55+45*($R)',scale=1280:720:flags=bicubic,drawtext=text='Investor video — placeholder':fontfile=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf:fontcolor=white:fontsize=48:x=(w-tw)/2:y=(h-th)/2:box=1:boxcolor=0x0f172a@0.6:boxborderw=24" \
  -c:v libx264 -preset slow -crf 24 -profile:v high -pix_fmt yuv420p -movflags +faststart -an \
  private/investorvideo.mp4

# --- PDFs, written by hand: one page of Helvetica text each, WinAnsi encoded.
node --input-type=module - "$FIRM_NAME" <<'NODE'
import { writeFileSync } from "node:fs";

const firmName = process.argv[2];

/** A valid one-page PDF (US Letter) with a title and wrapped paragraphs. */
function textPdf({ title, paragraphs }) {
  const pdfString = (text) =>
    "(" +
    [...text]
      .map((ch) => {
        if (ch === "—") return "\\227"; // em dash in WinAnsiEncoding
        if (ch === "’") return "\\222";
        if ("()\\".includes(ch)) return "\\" + ch;
        if (ch.charCodeAt(0) > 126) throw new Error(`No WinAnsi mapping for ${ch}`);
        return ch;
      })
      .join("") +
    ")";
  // The document information dictionary is not WinAnsi: UTF-16BE with a byte order mark.
  const infoString = (text) => "<FEFF" + Buffer.from(text, "utf16le").swap16().toString("hex").toUpperCase() + ">";
  const wrap = (text, width) => {
    const lines = [];
    let line = "";
    for (const word of text.split(" ")) {
      if (line && (line + " " + word).length > width) {
        lines.push(line);
        line = word;
      } else line = line ? line + " " + word : word;
    }
    if (line) lines.push(line);
    return lines;
  };

  const ops = ["BT", "/F2 16 Tf", "72 720 Td", "18 TL", `${pdfString(title)} Tj`, "/F1 10.5 Tf", "14 TL", "T*"];
  for (const paragraph of paragraphs) {
    ops.push("T*");
    for (const line of wrap(paragraph, 92)) ops.push(`${pdfString(line)} '`);
  }
  ops.push("ET");
  const content = ops.join("\n");

  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>",
    `<< /Length ${Buffer.byteLength(content, "latin1")} >>\nstream\n${content}\nendstream`,
    `<< /Title ${infoString(title)} /Author ${infoString(firmName)} >>`,
  ];
  let pdf = "%PDF-1.4\n%\xE2\xE3\xCF\xD3\n";
  const offsets = [];
  objects.forEach((body, index) => {
    offsets.push(Buffer.byteLength(pdf, "latin1"));
    pdf += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(pdf, "latin1");
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, "0")} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info ${objects.length} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, "latin1");
}

writeFileSync(
  "public/pdfs/business-continuity-plan.pdf",
  textPdf({
    title: "Business Continuity Plan Disclosure",
    paragraphs: [
      `PLACEHOLDER — this text stands in for ${firmName}'s own disclosure and must be replaced before launch.`,
      `${firmName} ("the firm") has adopted a business continuity plan to respond to a significant business disruption (SBD). Because the timing and impact of disasters and disruptions are unpredictable, we must be flexible in responding to actual events as they occur. With that in mind, we provide the following information about our plan.`,
      "Our plan. We plan to quickly recover and resume business operations after a significant business disruption and respond by safeguarding our employees and property, making a financial and operational assessment, protecting the firm's books and records, and allowing our customers to transact business. In short, our plan is designed to permit the firm to resume operations as quickly as possible, given the scope and severity of the significant business disruption.",
      "Our plan addresses: data backup and recovery; all mission-critical systems; financial and operational assessments; alternative communications with customers, employees and regulators; alternate physical location of employees; critical suppliers, contractors, banks and counter-parties; regulatory reporting; and assuring our customers prompt access to their funds and securities if we are unable to continue our business.",
      "Our clearing firm backs up our important records in a geographically separate area. While every emergency situation poses unique problems based on external factors, such as time of day and the severity of the disruption, we have been advised by our clearing firm that its objective is to restore its own operations and be able to complete existing transactions and accept new transactions and payments within four hours. Your orders and requests for funds and securities could be delayed during this period.",
      "Varying disruptions. Significant business disruptions can vary in their scope, such as only our firm, a single building that houses our firm, the business district where our firm is located, the city where we are located, or the whole region. Within each of these areas, the severity of the disruption can also vary from minimal to severe. In a disruption to only our firm or a building that houses our firm, we will transfer our operations to a local site when needed and expect to recover and resume business within one business day. In a disruption affecting our business district, city or region, we will transfer our operations to a site outside of the affected area and expect to recover and resume business within two business days. In either situation, we plan to continue in business, transfer operations to our clearing firm if necessary, and notify you through our website or our customer emergency number how to contact us. If the significant business disruption is so severe that it prevents us from remaining in business, we will assure our customers prompt access to their funds and securities.",
      "For more information. If you have questions about our business continuity planning, you can contact us at the firm's information mailbox shown on our website.",
    ],
  }),
);

writeFileSync(
  "private/download.pdf",
  textPdf({
    title: "Investor materials — placeholder",
    paragraphs: [
      `PLACEHOLDER — ${firmName} replaces this file with its description of the firm, slide deck and offering details.`,
      "This document is confidential and is provided only to investors who have signed the firm's non-disclosure agreement. It is not an offer to sell or a solicitation of an offer to buy any security.",
    ],
  }),
);
NODE

ls -l public/images/hero-poster*.webp public/video/introvideo.mp4 private/investorvideo.mp4 public/pdfs/business-continuity-plan.pdf private/download.pdf
