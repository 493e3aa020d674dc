// Lists and community: the featured list's items, timed comments, subscriptions and markers, a message thread,
// notifications and a series' glossary.

import { DAY, HOUR, NOW, capNow } from "./core.mjs";
import { ALICE, BOB, MANAGER } from "./users.mjs";

/** The first normal video of a type in a container; the hand-picked references below rely on it existing. */
function firstOf(videos, containerId, type) {
  const found = videos.find((v) => v.container_id === containerId && v.type === type && v.state === "normal");
  if (!found) throw new Error(`demo data: container ${containerId} has no normal ${type}`);
  return found;
}

export function listItemRows(videos) {
  const featured = [
    ["c", 1],
    ["c", 29],
    ["v", firstOf(videos, 33, "movie").id],
    ["c", 7],
    ["c", 48],
    ["v", firstOf(videos, 12, "episode").id],
    ["c", 24],
    ["v", firstOf(videos, 52, "music_video").id],
  ];
  // 2l (on air) and 6l (upcoming) are derived from the containers' flags (migration 0013): no items to write.
  return featured.map(([resource_kind, resource_id], position) => ({ list_id: 1, position, resource_kind, resource_id }));
}

export function timedCommentRows(r, videos) {
  const targets = [
    [firstOf(videos, 1, "episode"), "en", ["This scene!!", "The bakery set is so cozy", "I knew it was him", "Best episode so far"]],
    [firstOf(videos, 1, "episode"), "ko", ["와 대박", "여기 너무 웃겨요"]],
    [firstOf(videos, 29, "movie"), "en", ["The docking sequence is incredible", "Holding my breath here", "That ending though"]],
    [firstOf(videos, 48, "music_video"), "en", ["The choreography at the chorus!", "Replaying this forever"]],
    [firstOf(videos, 24, "movie"), "es", ["Qué bonita escena", "Lloré muchísimo aquí"]],
  ];
  const rows = [];
  for (const [video, language, comments] of targets) {
    const times = comments.map(() => r.int(5, Math.max(6, video.duration - 5)) * 1000).sort((a, b) => a - b);
    comments.forEach((comment, i) => {
      rows.push({
        id: rows.length + 1,
        video_id: video.id,
        language,
        user_id: i % 2 ? BOB : ALICE,
        time_ms: times[i],
        comment,
        created_at: capNow(video.created_at + r.int(1, 30) * DAY),
      });
    });
  }
  return rows;
}

export function followRows(videos) {
  const at = (days) => NOW - days * DAY;
  const subscriptions = [
    { user_id: ALICE, resource_kind: "c", resource_id: 1, created_at: at(40) },
    { user_id: ALICE, resource_kind: "c", resource_id: 7, created_at: at(30) },
    { user_id: ALICE, resource_kind: "c", resource_id: 48, created_at: at(20) },
    { user_id: ALICE, resource_kind: "c", resource_id: 12, created_at: at(10) },
    { user_id: BOB, resource_kind: "c", resource_id: 1, created_at: at(35) },
    { user_id: BOB, resource_kind: "c", resource_id: 29, created_at: at(25) },
    { user_id: BOB, resource_kind: "c", resource_id: 39, created_at: at(15) },
  ];
  const markers = [
    { user_id: ALICE, resource_kind: "c", resource_id: 24, created_at: at(12) },
    { user_id: ALICE, resource_kind: "v", resource_id: firstOf(videos, 1, "episode").id + 2, created_at: at(6) },
    { user_id: ALICE, resource_kind: "c", resource_id: 63, created_at: at(3) },
    { user_id: BOB, resource_kind: "v", resource_id: firstOf(videos, 33, "movie").id, created_at: at(9) },
    { user_id: BOB, resource_kind: "c", resource_id: 52, created_at: at(4) },
  ];
  return { subscriptions, markers };
}

/** One conversation: alice writes, bob replies. Both see it in inbox and sent; alice has not read the reply. */
export function messagingRows() {
  const sent = NOW - 2 * DAY;
  const replied = NOW - 2 * DAY + 3 * HOUR;
  return {
    threads: [{ id: 1, created_by: ALICE, created_at: sent, updated_at: replied }],
    participants: [
      { thread_id: 1, user_id: ALICE, unread: 1, deleted: 0, in_inbox: 1, in_sent: 1, last_message_at: replied },
      { thread_id: 1, user_id: BOB, unread: 0, deleted: 0, in_inbox: 1, in_sent: 1, last_message_at: replied },
    ],
    messages: [
      { id: 1, thread_id: 1, sender_id: ALICE, content: "Have you started Moonlight Bakery? Episode 3 is so good!", created_at: sent },
      {
        id: 2,
        thread_id: 1,
        sender_id: BOB,
        content: "Just finished it. I'll help with the Spanish subtitles this weekend.",
        created_at: replied,
      },
    ],
  };
}

export function notificationRows(containers) {
  const bakery = containers[0];
  const title = bakery.def.en;
  // The manager's messages to the bakery's subscribers.
  const notification = (id, userId, unread, createdAt, content) => ({
    id,
    user_id: userId,
    container_id: bakery.id,
    sender_id: MANAGER,
    job_id: null,
    unread,
    created_at: createdAt,
    content,
  });
  return [
    notification(1, ALICE, 1, NOW - DAY, `A new episode of ${title} is out now. Thank you for watching!`),
    notification(2, ALICE, 0, NOW - 8 * DAY, `${title} needs Spanish and French subtitlers. Join the team!`),
    notification(3, BOB, 1, NOW - DAY, `A new episode of ${title} is out now. Thank you for watching!`),
  ];
}

/**
 * The glossary of "The King's Secret Garden" (container 3, the one /docs pre-fills): the names and forms of address
 * its translators keep the same in every episode (docs/api.md, "Glossary"), one term of each status.
 */
export function glossaryRows(containers) {
  const garden = containers.find((c) => c.def.en === "The King's Secret Garden");
  if (!garden) throw new Error("demo data: no container 'The King's Secret Garden' for the glossary");
  const term = (id, term, language, translations, status, note) => ({
    id,
    container_id: garden.id,
    term,
    language,
    translations: JSON.stringify(translations),
    status,
    note,
    case_sensitive: 0,
    created_at: NOW - 30 * DAY,
    updated_at: NOW - 30 * DAY,
  });
  return [
    term(1, "이도", "ko", { en: "Yi Do", es: "Yi Do" }, "preferred", "the king's given name"),
    term(2, "전하", "ko", { en: "Your Majesty", es: "Su Majestad" }, "preferred", "how the court addresses the king"),
    term(3, "비밀 정원", "ko", { en: "Secret Garden", es: "Jardín Secreto" }, "preferred", ""),
    term(4, "OST", "ko", {}, "do_not_translate", "the soundtrack, as viewers call it"),
    term(5, "Mister King", "en", {}, "forbidden", "use Your Majesty"),
  ];
}
