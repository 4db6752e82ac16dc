"""What the server itself writes to a player away from the pages (emails, push
notifications), in the player's language (``AccountContact.language``; en, ja, vi).
The pages' own strings are in web/i18n; these never reach a page."""

from __future__ import annotations

from typing import Any

LANGUAGES = ("en", "ja", "vi")

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "your_turn.title": "Your turn",
        "your_turn.body": "{game}: the table is waiting for your move.",
        "your_turn.subject": "Your turn at {count} table(s)",
        "your_turn.intro": "Hello {name}, these tables are waiting for your move:",
        "invitation.title": "An invitation",
        "invitation.body": "{inviter} invites you to a table of {game}.",
        "matched.title": "Table found",
        "matched.body": "Your table of {game} is ready.",
        "tournament.title": "Tournament",
        "tournament.body": "A round of your tournament is about to start.",
        "review_ready.title": "Review ready",
        "review_ready.body": "The review of your game of {game} is ready.",
        "mail.open": "Open it: {url}",
        "mail.unsubscribe": "Stop these emails: {url}",
        "mail.settings": "Choose which alerts you get on your account page: {url}",
        "verify.subject": "Confirm your email address",
        "verify.body": "Hello {name},\n\nto confirm that this address belongs to your Ludoteca account, "
                       "open this link (valid for {hours} hours, once):\n\n{url}\n\n"
                       "If you did not ask for this, ignore this message.",
        "reset.subject": "Reset your password",
        "reset.body": "Hello {name},\n\nsomeone (we hope you) asked to reset the password of your Ludoteca "
                      "account. Open this link to choose a new one (valid for {minutes} minutes, once):\n\n"
                      "{url}\n\nIf you did not ask for this, ignore this message: your password stays.",
    },
    "ja": {
        "your_turn.title": "あなたの番です",
        "your_turn.body": "{game}：テーブルがあなたの手番を待っています。",
        "your_turn.subject": "{count} つのテーブルであなたの番です",
        "your_turn.intro": "{name} さん、次のテーブルがあなたの手番を待っています：",
        "invitation.title": "招待",
        "invitation.body": "{inviter} さんが {game} のテーブルにあなたを招待しました。",
        "matched.title": "対戦相手が見つかりました",
        "matched.body": "{game} のテーブルの準備ができました。",
        "tournament.title": "トーナメント",
        "tournament.body": "トーナメントの次のラウンドがまもなく始まります。",
        "review_ready.title": "振り返りの準備完了",
        "review_ready.body": "{game} の対局の振り返りができあがりました。",
        "mail.open": "開く：{url}",
        "mail.unsubscribe": "このメールを停止する：{url}",
        "mail.settings": "受け取る通知はアカウントページで選べます：{url}",
        "verify.subject": "メールアドレスの確認",
        "verify.body": "{name} さん\n\nこのアドレスがあなたの Ludoteca アカウントのものであることを確認するため、"
                       "次のリンクを開いてください（有効期限 {hours} 時間、1 回のみ）：\n\n{url}\n\n"
                       "心当たりがない場合は、このメールを無視してください。",
        "reset.subject": "パスワードの再設定",
        "reset.body": "{name} さん\n\nあなたの Ludoteca アカウントのパスワード再設定が依頼されました。"
                      "新しいパスワードを決めるには次のリンクを開いてください（有効期限 {minutes} 分、1 回のみ）：\n\n"
                      "{url}\n\n心当たりがない場合は、このメールを無視してください。パスワードは変わりません。",
    },
    "vi": {
        "your_turn.title": "Đến lượt bạn",
        "your_turn.body": "{game}: bàn chơi đang chờ nước đi của bạn.",
        "your_turn.subject": "Đến lượt bạn ở {count} bàn",
        "your_turn.intro": "Chào {name}, các bàn sau đang chờ nước đi của bạn:",
        "invitation.title": "Lời mời",
        "invitation.body": "{inviter} mời bạn vào một bàn {game}.",
        "matched.title": "Đã tìm được bàn",
        "matched.body": "Bàn {game} của bạn đã sẵn sàng.",
        "tournament.title": "Giải đấu",
        "tournament.body": "Một vòng của giải đấu của bạn sắp bắt đầu.",
        "review_ready.title": "Đã có bản phân tích",
        "review_ready.body": "Bản phân tích ván {game} của bạn đã sẵn sàng.",
        "mail.open": "Mở: {url}",
        "mail.unsubscribe": "Ngừng nhận các email này: {url}",
        "mail.settings": "Chọn các thông báo bạn muốn nhận trên trang tài khoản: {url}",
        "verify.subject": "Xác nhận địa chỉ email của bạn",
        "verify.body": "Chào {name},\n\nđể xác nhận địa chỉ này thuộc về tài khoản Ludoteca của bạn, "
                       "hãy mở liên kết sau (hiệu lực {hours} giờ, dùng một lần):\n\n{url}\n\n"
                       "Nếu bạn không yêu cầu việc này, hãy bỏ qua email này.",
        "reset.subject": "Đặt lại mật khẩu",
        "reset.body": "Chào {name},\n\ncó người (hy vọng là bạn) đã yêu cầu đặt lại mật khẩu tài khoản Ludoteca "
                      "của bạn. Mở liên kết sau để chọn mật khẩu mới (hiệu lực {minutes} phút, dùng một lần):\n\n"
                      "{url}\n\nNếu bạn không yêu cầu, hãy bỏ qua email này: mật khẩu của bạn vẫn giữ nguyên.",
    },
}


def language(lang: str | None) -> str:
    return lang if lang in LANGUAGES else "en"


def text(lang: str | None, key: str, **args: Any) -> str:
    """The string ``key`` in ``lang`` (English if it has none), filled with ``args``."""
    template = TEXTS[language(lang)].get(key) or TEXTS["en"][key]
    return template.format_map(_Args(args))


class _Args(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def game_name(game: str | None) -> str:
    """A game's own name (the games are named alike in every language)."""
    if not game:
        return "Ludoteca"
    try:
        from ludoteca.games import load

        name = load(game).info().get("name")
        return str(name) if name else game
    except Exception:
        return game
