// UTF-8 text <-> base64 lives in core-types (chat sends text documents as text too); re-exported
// with the one data-URL parser for this package's internal entry.
export { base64ToText, parseDataUrl, textToBase64 } from "@interlingua/core-types";
