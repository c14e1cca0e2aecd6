import type {
  Request,
  RequestFieldTable,
  UpstreamProtocol,
  Warning,
  WireFormat,
} from "@interlingua/core-types";
import { invalidRequest } from "@interlingua/errors";
import { chatRequestFields, untranslatedChatFields } from "@interlingua/fmt-chat";
import { messagesRequestFields, untranslatedMessagesFields } from "@interlingua/fmt-messages";
import { nativeRequestFields, untranslatedNativeFields } from "@interlingua/fmt-native";
import { responsesRequestFields, untranslatedResponsesFields } from "@interlingua/fmt-responses";

interface ClientFields {
  /** Each request field of the format: mapped, warned or refused (the format's README table). */
  readonly table: RequestFieldTable;
  /** The client's fields a render into another format leaves behind (its extras). */
  readonly untranslated: (request: Request) => string[];
}

const CLIENT_FIELDS: Record<WireFormat, ClientFields> = {
  chat: { table: chatRequestFields, untranslated: untranslatedChatFields },
  messages: { table: messagesRequestFields, untranslated: untranslatedMessagesFields },
  native: { table: nativeRequestFields, untranslated: untranslatedNativeFields },
  responses: { table: responsesRequestFields, untranslated: untranslatedResponsesFields },
};

/**
 * A request of client format F rendered for an upstream of another format keeps only what the
 * canonical model holds; the rest of F's fields (kept in extras for F's own upstreams) would
 * vanish. Each is reported as `dropped`, or refused with a 400 naming it where F's table says
 * no upstream can honour it (`previous_response_id`: state the gateway does not keep).
 */
export function reportUntranslatedFields(
  format: WireFormat,
  canonical: Request,
  protocol: UpstreamProtocol,
  onWarning: (warning: Warning) => void,
  /** The upstream's codec writes F's extras back (responses toward the Responses API): none drop. */
  carried = false,
): void {
  const fields = CLIENT_FIELDS[format];
  for (const path of fields.untranslated(canonical)) {
    if (fields.table[path] === "refused") {
      throw invalidRequest(
        `${path}: not supported by this gateway (the ${protocol} upstream cannot honour it and dropping it would change the request)`,
        path,
      );
    }
    if (carried) continue;
    onWarning({
      type: "dropped",
      feature: path,
      message: `the ${protocol} upstream has no equivalent of this ${format} field`,
    });
  }
}
