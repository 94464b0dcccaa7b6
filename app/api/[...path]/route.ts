import { apiError } from "@/app/api/_lib/handler";

// Any /api path no route serves answers in the API's one error shape, not with the HTML 404 page.
const notFound = () => apiError(404, "not_found", "no such API endpoint");

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
export const HEAD = notFound;
export const OPTIONS = notFound;
