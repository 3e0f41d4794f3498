// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "statuspalette.h"

#include <QCoreApplication>
#include <QTreeWidgetItem>

namespace redrive::ui {

StatusLook statusLook(EventStatus status)
{
    switch (status) {
    case EventStatus::Succeeded:
        return { QColor(0xd7, 0xf2, 0xdc), QColor(0x1b, 0x5e, 0x20),
            QCoreApplication::translate("redrive::ui::StatusPalette", "succeeded") };
    case EventStatus::Dead:
        return { QColor(0xfa, 0xd4, 0xd4), QColor(0x9b, 0x1c, 0x1c),
            QCoreApplication::translate("redrive::ui::StatusPalette", "dead") };
    case EventStatus::Retrying:
        return { QColor(0xfd, 0xeb, 0xc8), QColor(0x8a, 0x4b, 0x00),
            QCoreApplication::translate("redrive::ui::StatusPalette", "retrying") };
    case EventStatus::InFlight:
        return { QColor(0xd6, 0xe6, 0xfb), QColor(0x0d, 0x47, 0xa1),
            QCoreApplication::translate("redrive::ui::StatusPalette", "in flight") };
    case EventStatus::Pending:
        return { QColor(0xe8, 0xea, 0xed), QColor(0x37, 0x47, 0x4f),
            QCoreApplication::translate("redrive::ui::StatusPalette", "pending") };
    case EventStatus::NoRoute:
        return { QColor(0xef, 0xe6, 0xf7), QColor(0x5e, 0x35, 0x8c),
            QCoreApplication::translate("redrive::ui::StatusPalette", "no route") };
    case EventStatus::Invalid: // quarantined: amber-brown, apart from dead's red and retrying's orange
        return { QColor(0xf3, 0xe5, 0xd0), QColor(0x6d, 0x3f, 0x0a),
            QCoreApplication::translate("redrive::ui::StatusPalette", "invalid") };
    case EventStatus::Resolved: // handled by a person instead of delivered: teal, apart from green
        return { QColor(0xd9, 0xf0, 0xee), QColor(0x00, 0x5b, 0x52),
            QCoreApplication::translate("redrive::ui::StatusPalette", "resolved") };
    }
    return {};
}

StatusLook statusLook(DeliveryStatus status)
{
    switch (status) {
    case DeliveryStatus::Pending:
        return statusLook(EventStatus::Pending);
    case DeliveryStatus::InFlight:
        return statusLook(EventStatus::InFlight);
    case DeliveryStatus::Retrying:
        return statusLook(EventStatus::Retrying);
    case DeliveryStatus::Succeeded:
        return statusLook(EventStatus::Succeeded);
    case DeliveryStatus::Dead:
        return statusLook(EventStatus::Dead);
    case DeliveryStatus::Resolved:
        return statusLook(EventStatus::Resolved);
    }
    return {};
}

namespace {
// A status this console does not know, shown as it was stored, in neutral grey.
StatusLook unknownLook(const QString &stored)
{
    return { QColor(0xee, 0xee, 0xee), QColor(0x42, 0x42, 0x42), stored };
}
} // namespace

StatusLook downstreamLook(DownstreamState state)
{
    const QString label = describe(state);
    switch (state) {
    case DownstreamState::SucceededWithRef:
        return { QColor(0xd7, 0xf2, 0xdc), QColor(0x1b, 0x5e, 0x20), QStringLiteral("✔ ") + label };
    case DownstreamState::Succeeded:
        return { QColor(0xe6, 0xf4, 0xe8), QColor(0x33, 0x69, 0x1e), QStringLiteral("✔ ") + label };
    case DownstreamState::Failed:
        return { QColor(0xfa, 0xd4, 0xd4), QColor(0x9b, 0x1c, 0x1c), QStringLiteral("✖ ") + label };
    case DownstreamState::OutcomeUnknown:
        return { QColor(0xff, 0xe0, 0xb2), QColor(0x7a, 0x3e, 0x00), QStringLiteral("? ") + label };
    case DownstreamState::Pending:
        return { QColor(0xe8, 0xea, 0xed), QColor(0x37, 0x47, 0x4f), QStringLiteral("… ") + label };
    case DownstreamState::Resolved:
        return { QColor(0xd9, 0xf0, 0xee), QColor(0x00, 0x5b, 0x52), QStringLiteral("✋ ") + label };
    case DownstreamState::None:
        break;
    }
    return { QColor(0xf5, 0xf5, 0xf5), QColor(0x75, 0x75, 0x75), label };
}

QString categoryLabel(FailureCategory category)
{
    switch (category) {
    case FailureCategory::None:
        return QCoreApplication::translate("redrive::ui::StatusPalette", "Success");
    case FailureCategory::HttpRetryable:
        return QCoreApplication::translate("redrive::ui::StatusPalette", "HTTP retryable");
    case FailureCategory::HttpPermanent:
        return QCoreApplication::translate("redrive::ui::StatusPalette", "HTTP permanent");
    case FailureCategory::Redirect:
        return QCoreApplication::translate("redrive::ui::StatusPalette", "Redirect");
    case FailureCategory::Timeout:
        return QCoreApplication::translate("redrive::ui::StatusPalette", "Timeout");
    case FailureCategory::ConnectionRefused:
        return QCoreApplication::translate("redrive::ui::StatusPalette", "Connection refused");
    case FailureCategory::ConnectionReset:
        return QCoreApplication::translate("redrive::ui::StatusPalette", "Connection reset");
    case FailureCategory::Dns:
        return QCoreApplication::translate("redrive::ui::StatusPalette", "DNS");
    case FailureCategory::Tls:
        return QCoreApplication::translate("redrive::ui::StatusPalette", "TLS");
    case FailureCategory::BlockedAddress:
        return QCoreApplication::translate("redrive::ui::StatusPalette", "Blocked address");
    case FailureCategory::InvalidUrl:
        return QCoreApplication::translate("redrive::ui::StatusPalette", "Invalid URL");
    case FailureCategory::Integrity:
        return QCoreApplication::translate("redrive::ui::StatusPalette", "Integrity");
    case FailureCategory::LeaseExpired:
        return QCoreApplication::translate("redrive::ui::StatusPalette", "Lease expired");
    case FailureCategory::Network:
        return QCoreApplication::translate("redrive::ui::StatusPalette", "Network");
    }
    return {};
}

QString categoryLabel(const Stored<FailureCategory> &category)
{
    if (const auto known = category.value())
        return categoryLabel(*known);
    return category.name();
}

StatusLook statusLook(const Stored<EventStatus> &status)
{
    if (const auto known = status.value())
        return statusLook(*known);
    return unknownLook(status.name());
}

StatusLook statusLook(const Stored<DeliveryStatus> &status)
{
    if (const auto known = status.value())
        return statusLook(*known);
    return unknownLook(status.name());
}

void paintChip(QTreeWidgetItem *item, int column, const StatusLook &look)
{
    item->setText(column, look.label);
    item->setBackground(column, look.background);
    item->setForeground(column, look.foreground);
}

namespace {

// Each tone's text colour and the background it is shown on, chosen together so the pair keeps
// its contrast.
struct ToneColours {
    QColor text;
    QColor background;
};

ToneColours toneColours(Tone tone)
{
    switch (tone) {
    case Tone::Good:
        return { { 0x1b, 0x5e, 0x20 }, { 0xd7, 0xf2, 0xdc } };
    case Tone::Bad:
        return { { 0xb7, 0x1c, 0x1c }, { 0xfa, 0xd4, 0xd4 } };
    case Tone::Caution:
        return { { 0x7a, 0x3e, 0x00 }, { 0xff, 0xe0, 0xb2 } };
    case Tone::Info:
        return { { 0x0d, 0x47, 0xa1 }, { 0xe3, 0xf2, 0xfd } };
    case Tone::Muted:
        break;
    }
    return { { 0x61, 0x61, 0x61 }, { 0xf5, 0xf5, 0xf5 } };
}

} // namespace

QColor toneText(Tone tone)
{
    return toneColours(tone).text;
}

QColor toneBackground(Tone tone)
{
    return toneColours(tone).background;
}

QVariant cellColour(const StatusLook &look, int role)
{
    if (role == Qt::BackgroundRole)
        return look.background;
    if (role == Qt::ForegroundRole)
        return look.foreground;
    return {};
}

QVariant cellColour(Tone tone, int role)
{
    const ToneColours colours = toneColours(tone);
    return cellColour(StatusLook { colours.background, colours.text, {} }, role);
}

QString toneTextStyle(Tone tone, bool bold)
{
    return QStringLiteral("color: %1;%2")
        .arg(toneText(tone).name(), bold ? QStringLiteral(" font-weight: bold;") : QString());
}

QString noticeStyle(Tone tone)
{
    return QStringLiteral("QLabel { color: %1; background: %2; padding: 6px; border-radius: 3px; }")
        .arg(toneText(tone).name(), toneBackground(tone).name());
}

QString bannerStyle()
{
    return QStringLiteral("QLabel { background: %1; color: #5d2e00; border-bottom: 2px solid #f57c00; "
                          "font-weight: bold; }")
        .arg(toneBackground(Tone::Caution).name());
}

QString bannerStyle(const QColor &background)
{
    // Text in black or white, whichever reads on the profile's colour.
    const QColor text = background.lightnessF() > 0.6 ? QColor(Qt::black) : QColor(Qt::white);
    return QStringLiteral("QLabel { background: %1; color: %2; font-weight: bold; letter-spacing: 1px; }")
        .arg(background.name(), text.name());
}

QString headingStyle()
{
    return QStringLiteral("font-weight: bold;");
}

QString dangerButtonStyle()
{
    return QStringLiteral("QPushButton:enabled { color: white; background: #c62828; }");
}

QString infoButtonStyle()
{
    return QStringLiteral("QPushButton { background: %1; color: %2; padding: 4px; "
                          "border: 1px solid #90caf9; border-radius: 3px; }")
        .arg(toneBackground(Tone::Info).name(), toneText(Tone::Info).name());
}

QString invalidFieldStyle()
{
    return QStringLiteral("border: 2px solid #d32f2f;");
}

QString swatchStyle(const QColor &colour)
{
    return QStringLiteral("background: %1;").arg(colour.name());
}

QColor receivedSeriesColour()
{
    return { 0x42, 0x42, 0x42 };
}

QColor retriedSeriesColour()
{
    return { 0xef, 0x8f, 0x00 };
}

QColor failedAttemptsColour()
{
    return { 0xe5, 0x73, 0x73 };
}

} // namespace redrive::ui
