/**
 * The route table. Unknown paths match the last route, whose loader answers
 * 404: the root error boundary shows the 404 page, with header and footer.
 */
import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("blog", "routes/blog.tsx", { id: "blog-index" }),
  route("blog/page/:page", "routes/blog.tsx", { id: "blog-page" }),
  route("blog/rss.xml", "routes/blog-rss.ts"),
  route("sitemap.xml", "routes/sitemap.ts"),
  route("robots.txt", "routes/robots.ts"),
  route("blog/:slug", "routes/blog-article.tsx"),
  route("contact", "routes/contact.tsx"),
  route("rappel", "routes/callback.tsx"),
  route("confiance", "routes/trust.tsx"),
  route("questions", "routes/questions.tsx"),
  // Courses (app/courses/): rendered on request, for live seat counts.
  route("cours", "routes/courses.tsx"),
  route("cours/inscription/:token", "routes/course-registration.tsx"),
  route("cours/inscription/:token/calendrier.ics", "routes/course-calendar.ts"),
  route("cours/place/:token", "routes/course-offer.tsx"),
  // The short link of an SMS reminder (app/courses/reminder-channels.server.ts): « Toujours partant·e ? ».
  route("r/:token", "routes/course-reminder.tsx"),
  route("cours/:slug", "routes/course.tsx"),
  route("coordonnees", "routes/coordonnees.tsx"),
  // Pictures uploaded in the desk (app/pictures/), from the database.
  route("images/:file", "routes/image.ts"),
  // Share images of articles (app/seo/share-image.server.ts), made on the server, from the database.
  route("og/articles/:file", "routes/share-image.ts"),
  // The site's share image made with the owner's hero photo (the repository's is public/og/site.png).
  route("og/site/:file", "routes/site-share-image.ts"),
  route("newsletter", "routes/newsletter.tsx"),
  route("newsletter/confirmer/:token", "routes/newsletter-confirm.tsx"),
  route("newsletter/desabonnement/:token", "routes/newsletter-unsubscribe.tsx"),
  route("newsletter/archives", "routes/newsletter-archives.tsx"),
  route("newsletter/archives/:slug", "routes/newsletter-letter.tsx"),
  route("mentions-legales", "routes/mentions-legales.tsx"),
  route("confidentialite", "routes/confidentialite.tsx"),
  route("__erreur-test", "routes/error-test.tsx"),
  // The owner's desk (app/desk/): the guard middleware (`ownerGuard`) of the layout and of the
  // event stream guards every route but the sign-in.
  route("admin/connexion", "routes/admin/sign-in.tsx"),
  // The desk's event stream (app/desk/live.server.ts): a resource route, outside the frame.
  route("admin/direct", "routes/admin/live.ts"),
  layout("routes/admin/layout.tsx", [
    route("admin", "routes/admin/inbox.tsx"),
    route("admin/demandes/:id", "routes/admin/request.tsx"),
    route("admin/demandes.csv", "routes/admin/requests-csv.ts"),
    route("admin/personne", "routes/admin/person.tsx"),
    route("admin/non-remis", "routes/admin/undelivered.tsx"),
    route("admin/envoi", "routes/admin/sender.tsx"),
    route("admin/personne.json", "routes/admin/person-export.ts"),
    route("admin/personne/export", "routes/admin/person-print.tsx"),
    route("admin/deconnexion", "routes/admin/sign-out.tsx"),
    route("admin/lettres", "routes/admin/letters.tsx"),
    route("admin/lettres/:id", "routes/admin/letter.tsx"),
    route("admin/articles", "routes/admin/articles.tsx"),
    route("admin/articles/:id", "routes/admin/article.tsx"),
    route("admin/images", "routes/admin/images.tsx"),
    route("admin/reglages", "routes/admin/settings.tsx"),
    route("admin/abonnes", "routes/admin/subscribers.tsx"),
    route("admin/abonnes.csv", "routes/admin/subscribers-csv.ts"),
    route("admin/cours", "routes/admin/courses.tsx"),
    route("admin/a-appeler", "routes/admin/call-list.tsx"),
    route("admin/cours/nouvelle-serie", "routes/admin/course-series.tsx"),
    route("admin/cours/:id", "routes/admin/course-session.tsx"),
    route("admin/cours/:id/presences", "routes/admin/course-attendance.tsx"),
    route("admin/cours/:id/inscrits.csv", "routes/admin/course-csv.ts"),
    route("admin/cours/:id/lettres.pdf", "routes/admin/course-letters-pdf.ts"),
    route("admin/cours/:id/attestations.pdf", "routes/admin/course-certificates-pdf.ts"),
    route("admin/cours/:id/liste-signatures.pdf", "routes/admin/course-signatures-pdf.ts"),
    route("admin/factures", "routes/admin/invoices.tsx"),
    route("admin/factures.csv", "routes/admin/invoices-csv.ts"),
    route("admin/factures/nouvelle", "routes/admin/invoice-new.tsx"),
    route("admin/factures/:id", "routes/admin/invoice.tsx"),
    route("admin/factures/:id/facture.pdf", "routes/admin/invoice-pdf.ts"),
    route("admin/donnees", "routes/admin/data-protection.tsx"),
    route("admin/donnees.csv", "routes/admin/data-protection-csv.ts"),
    route("admin/donnees.pdf", "routes/admin/data-protection-pdf.ts"),
    route("admin/donnees/violations", "routes/admin/breaches.tsx"),
    route("admin/donnees/violations/:id", "routes/admin/breach.tsx"),
  ]),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
