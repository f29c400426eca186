/**
 * A YouTube video that loads nothing from YouTube until the visitor asks:
 * a local poster with a play button. Without JavaScript the poster is a link
 * to the video on YouTube; with JavaScript a click replaces it with the
 * player from youtube-nocookie.com (YouTube's privacy-enhanced mode), which
 * starts playing.
 *
 * The poster is 16:9 at least, and grows taller when its play button and
 * lines need more room (narrow screens): no `overflow-hidden` on it, since
 * that would let `aspect-ratio` clip them.
 */
import { Play } from "lucide-react";
import { useState } from "react";

export function VideoEmbed({ videoId, title }: { videoId: string; title: string }) {
  const [playing, setPlaying] = useState(false);
  if (playing) {
    return (
      <div className="aspect-video overflow-hidden rounded-3xl bg-ink shadow-lg">
        <iframe
          src={`https://www.youtube-nocookie.com/embed/${videoId}?autoplay=1&rel=0`}
          title={`Vidéo : ${title}`}
          className="size-full"
          allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
          allowFullScreen
          referrerPolicy="strict-origin-when-cross-origin"
        />
      </div>
    );
  }
  return (
    <a
      href={`https://www.youtube.com/watch?v=${videoId}`}
      onClick={(event) => {
        event.preventDefault();
        setPlaying(true);
      }}
      className="group relative flex aspect-video flex-col items-center justify-center gap-4 rounded-3xl bg-gradient-to-br from-primary-strong to-secondary-strong p-6 text-center text-white no-underline shadow-lg"
    >
      <span className="inline-flex size-20 shrink-0 items-center justify-center rounded-full bg-white text-primary-strong shadow-lg transition-transform group-hover:scale-110 sm:size-24">
        <Play aria-hidden="true" className="ml-1 size-10 fill-current sm:size-12" />
      </span>
      <span className="text-xl font-bold sm:text-2xl">Regarder la vidéo</span>
      <span className="text-lg text-white/90">La vidéo s’ouvre depuis YouTube quand vous cliquez.</span>
      <span className="sr-only"> : {title}</span>
    </a>
  );
}
