import { z } from "zod";

const MAX_INT8 = 2n ** 63n - 1n;

/** A `?before=` page cursor: a bigint row id (a larger number would fail the query). */
export const idCursor = z.string().refine((v) => /^\d{1,19}$/.test(v) && BigInt(v) <= MAX_INT8, "must be an event id");
