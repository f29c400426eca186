/** Words the desk's call lists share (the session page and « À appeler demain »). */

/** Beside a person whose SMS the per-number daily cap held (decision 060): why she is to be called. */
export const SMS_HELD_WORDS = "SMS retenu : ce numéro a déjà reçu aujourd’hui le nombre de SMS permis par jour.";
