/** The person page's path (its search form, its erasure's redirect, its export's links). */
export const PERSON_PATH = "/admin/personne";
