/** The administrators' library page, or one document's page. */
export const libraryPath = (id?: string) => (id ? `/financing/library/${id}` : "/financing/library");
