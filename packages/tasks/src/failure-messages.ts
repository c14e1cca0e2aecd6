import type { Language } from "./language.js";
import type { TaskError } from "./task-resource.js";

/** The failure codes the gateway itself puts in a failed task's `error.code`. */
export const FAILURE_CODES = [
  "generation_failed",
  "content_policy_violation",
  "upstream_timeout",
  "upstream_unavailable",
  "invalid_upstream_result",
  "source_fetch_failed",
  "cancelled",
] as const;
export type FailureCode = (typeof FAILURE_CODES)[number];

/** `error.type` per code, from the API reference's standard error types: whose fault it was. */
export const FAILURE_TYPES: Readonly<Record<FailureCode, string>> = {
  generation_failed: "server_error",
  content_policy_violation: "invalid_request_error",
  upstream_timeout: "bad_gateway",
  upstream_unavailable: "bad_gateway",
  invalid_upstream_result: "bad_gateway",
  source_fetch_failed: "invalid_request_error",
  cancelled: "server_error",
};

/** Our catalogue, every code in all ten languages. English is what tasks store. */
export const FAILURE_MESSAGES: Readonly<Record<FailureCode, Readonly<Record<Language, string>>>> = {
  generation_failed: {
    en: "The generation failed.",
    zh: "生成失败。",
    ja: "生成に失敗しました。",
    ko: "생성에 실패했습니다.",
    ru: "Не удалось выполнить генерацию.",
    fr: "La génération a échoué.",
    de: "Die Generierung ist fehlgeschlagen.",
    id: "Pembuatan gagal.",
    pt: "A geração falhou.",
    es: "La generación falló.",
  },
  content_policy_violation: {
    en: "The request was blocked by the content safety policy.",
    zh: "请求因违反内容安全策略被拦截。",
    ja: "リクエストはコンテンツ安全ポリシーによりブロックされました。",
    ko: "요청이 콘텐츠 안전 정책에 의해 차단되었습니다.",
    ru: "Запрос заблокирован политикой безопасности контента.",
    fr: "La requête a été bloquée par la politique de sécurité du contenu.",
    de: "Die Anfrage wurde durch die Inhaltsrichtlinie blockiert.",
    id: "Permintaan diblokir oleh kebijakan keamanan konten.",
    pt: "A solicitação foi bloqueada pela política de segurança de conteúdo.",
    es: "La solicitud fue bloqueada por la política de seguridad de contenido.",
  },
  upstream_timeout: {
    en: "The upstream provider did not finish in time.",
    zh: "上游服务未能按时完成。",
    ja: "上流プロバイダーが時間内に完了しませんでした。",
    ko: "업스트림 제공자가 제한 시간 내에 완료하지 못했습니다.",
    ru: "Вышестоящий провайдер не завершил работу вовремя.",
    fr: "Le fournisseur en amont n'a pas terminé à temps.",
    de: "Der vorgelagerte Anbieter wurde nicht rechtzeitig fertig.",
    id: "Penyedia hulu tidak selesai tepat waktu.",
    pt: "O provedor upstream não concluiu a tempo.",
    es: "El proveedor upstream no terminó a tiempo.",
  },
  upstream_unavailable: {
    en: "The upstream provider is unavailable.",
    zh: "上游服务不可用。",
    ja: "上流プロバイダーが利用できません。",
    ko: "업스트림 제공자를 사용할 수 없습니다.",
    ru: "Вышестоящий провайдер недоступен.",
    fr: "Le fournisseur en amont est indisponible.",
    de: "Der vorgelagerte Anbieter ist nicht erreichbar.",
    id: "Penyedia hulu tidak tersedia.",
    pt: "O provedor upstream está indisponível.",
    es: "El proveedor upstream no está disponible.",
  },
  invalid_upstream_result: {
    en: "The upstream provider returned an unusable result.",
    zh: "上游服务返回了无法使用的结果。",
    ja: "上流プロバイダーが使用できない結果を返しました。",
    ko: "업스트림 제공자가 사용할 수 없는 결과를 반환했습니다.",
    ru: "Вышестоящий провайдер вернул непригодный результат.",
    fr: "Le fournisseur en amont a renvoyé un résultat inutilisable.",
    de: "Der vorgelagerte Anbieter hat ein unbrauchbares Ergebnis geliefert.",
    id: "Penyedia hulu mengembalikan hasil yang tidak dapat digunakan.",
    pt: "O provedor upstream retornou um resultado inutilizável.",
    es: "El proveedor upstream devolvió un resultado inutilizable.",
  },
  source_fetch_failed: {
    en: "An input image or video could not be fetched.",
    zh: "无法获取输入的图片或视频。",
    ja: "入力画像または動画を取得できませんでした。",
    ko: "입력 이미지 또는 동영상을 가져올 수 없습니다.",
    ru: "Не удалось загрузить входное изображение или видео.",
    fr: "Impossible de récupérer une image ou une vidéo d'entrée.",
    de: "Ein Eingabebild oder -video konnte nicht abgerufen werden.",
    id: "Gambar atau video masukan tidak dapat diambil.",
    pt: "Não foi possível obter uma imagem ou um vídeo de entrada.",
    es: "No se pudo obtener una imagen o un vídeo de entrada.",
  },
  cancelled: {
    en: "The task was cancelled.",
    zh: "任务已被取消。",
    ja: "タスクはキャンセルされました。",
    ko: "작업이 취소되었습니다.",
    ru: "Задача была отменена.",
    fr: "La tâche a été annulée.",
    de: "Die Aufgabe wurde abgebrochen.",
    id: "Tugas dibatalkan.",
    pt: "A tarefa foi cancelada.",
    es: "La tarea fue cancelada.",
  },
};

export function isFailureCode(code: unknown): code is FailureCode {
  return typeof code === "string" && (FAILURE_CODES as readonly string[]).includes(code);
}

/**
 * A failed task's error from our catalogue, in English. The upstream's own words, when given,
 * follow in parentheses; translation keeps them verbatim (we do not translate upstream text).
 */
export function failureError(code: FailureCode, upstreamMessage?: string): TaskError {
  const detail = upstreamMessage?.trim();
  const text = FAILURE_MESSAGES[code].en;
  return { code, type: FAILURE_TYPES[code], message: detail ? `${text} (${detail})` : text };
}

/** Which catalogue entry `message` starts with, and what follows it (the upstream detail). */
function splitCatalogueText(
  code: FailureCode,
  message: string,
): { language: Language; rest: string } | undefined {
  const entries = Object.entries(FAILURE_MESSAGES[code]) as [Language, string][];
  for (const [language, text] of entries) {
    if (message.startsWith(text)) return { language, rest: message.slice(text.length) };
  }
  return undefined;
}

/**
 * `error.message` in the caller's language (docs/api-reference.md "Events" item 4): our catalogue text when the
 * code is ours and the message is our catalogue text; the original otherwise — no language, an
 * upstream code, a message we did not write ("upstream text kept when nothing fits"), or text
 * already in the target language.
 */
export function localizeMessage(error: TaskError, language: Language | undefined): string {
  if (language === undefined || !isFailureCode(error.code)) return error.message;
  const found = splitCatalogueText(error.code, error.message);
  if (!found || found.language === language) return error.message;
  const translated = FAILURE_MESSAGES[error.code][language];
  return translated === undefined ? error.message : translated + found.rest;
}
