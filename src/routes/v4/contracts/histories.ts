import { z } from "@hono/zod-openapi";
import { HISTORY_KINDS } from "../../../db/schema";
import { cursorEnvelopeField } from "../../../lib/cursor";
import { listEnvelopeSchema } from "../../../lib/paging";
import { LanguageCode } from "./catalogue-writes";
import { WireId, bodyPaging } from "./localisation";

export const HistoriesBody = z
  .object({
    video_id: WireId("1v").optional().openapi({ description: "only changes to this video" }),
    language: LanguageCode.optional().openapi({ description: "only changes in this language" }),
    ...bodyPaging,
  })
  .openapi("SubtitleHistoriesRequest");

const HistorySchema = z
  .object({
    id: z.number().int().openapi({ description: "history entry id (no suffix: entries are not addressable)" }),
    kind: z.enum(HISTORY_KINDS).openapi({ description: "`segment`: a timing change; `subtitle`: a text change" }),
    video_id: z.string().openapi({ example: "1v" }),
    container_id: z.string().openapi({ example: "50c" }),
    segment_id: z.number().int().nullable(),
    subtitle_id: z.string().nullable().openapi({ example: "9s" }),
    language: z.string().nullable(),
    text: z.string().nullable(),
    version: z.number().int(),
    count: z.number().int().openapi({
      description:
        "changes the entry stands for: 1, or for an SRT import one entry per kind and chunk of cues (segments created; texts created, version 1, or replaced, version 2)",
    }),
    created_at: z.string().nullable(),
  })
  .openapi("SubtitleHistory");

export const HistoriesEnvelope = listEnvelopeSchema(HistorySchema, "SubtitleHistoryList", cursorEnvelopeField);
