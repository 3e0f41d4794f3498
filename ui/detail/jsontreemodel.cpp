// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "jsontreemodel.h"

#include "common/plaintooltip.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace redrive::ui {
namespace {

QString escapePointerToken(QString token)
{
    token.replace(u'~', QLatin1String("~0"));
    token.replace(u'/', QLatin1String("~1"));
    return token;
}

QString typeName(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::Null:
        return QCoreApplication::translate("redrive::ui::JsonTreeModel", "null");
    case QJsonValue::Bool:
        return QCoreApplication::translate("redrive::ui::JsonTreeModel", "boolean");
    case QJsonValue::Double:
        return QCoreApplication::translate("redrive::ui::JsonTreeModel", "number");
    case QJsonValue::String:
        return QCoreApplication::translate("redrive::ui::JsonTreeModel", "string");
    case QJsonValue::Array:
        return QCoreApplication::translate("redrive::ui::JsonTreeModel", "array");
    case QJsonValue::Object:
        return QCoreApplication::translate("redrive::ui::JsonTreeModel", "object");
    case QJsonValue::Undefined:
        break;
    }
    return {};
}

QString compact(const QJsonValue &v)
{
    if (v.isObject())
        return QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
    if (v.isArray())
        return QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
    if (v.isString())
        return v.toString();
    if (v.isBool())
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (v.isDouble())
        return QString::number(v.toDouble(), 'g', 17);
    return QStringLiteral("null");
}

} // namespace

JsonTreeModel::JsonTreeModel(QObject *parent)
    : QAbstractItemModel(parent)
    , m_root(std::make_unique<Node>())
{ }

JsonTreeModel::~JsonTreeModel() = default;

void JsonTreeModel::build(Node *node)
{
    auto add = [node](const QString &key, const QJsonValue &value) {
        auto child = std::make_unique<Node>();
        child->key = key;
        child->value = value;
        child->parent = node;
        child->row = int(node->children.size());
        build(child.get());
        node->children.push_back(std::move(child));
    };
    if (node->value.isObject()) {
        const QJsonObject obj = node->value.toObject();
        for (auto it = obj.begin(); it != obj.end(); ++it)
            add(it.key(), it.value());
    } else if (node->value.isArray()) {
        const QJsonArray arr = node->value.toArray();
        for (qsizetype i = 0; i < arr.size(); ++i)
            add(QString::number(i), arr.at(i));
    }
}

bool JsonTreeModel::setJson(const QByteArray &body, QString *error)
{
    beginResetModel();
    m_root = std::make_unique<Node>();
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &parseError);
    bool ok = parseError.error == QJsonParseError::NoError;
    if (ok) {
        m_root->value = doc.isArray() ? QJsonValue(doc.array()) : QJsonValue(doc.object());
        build(m_root.get());
    } else if (error) {
        *error = tr("not JSON (%1 at byte %L2)").arg(parseError.errorString()).arg(parseError.offset);
    }
    endResetModel();
    return ok;
}

void JsonTreeModel::clear()
{
    beginResetModel();
    m_root = std::make_unique<Node>();
    endResetModel();
}

JsonTreeModel::Node *JsonTreeModel::nodeAt(const QModelIndex &index) const
{
    return index.isValid() ? static_cast<Node *>(index.internalPointer()) : m_root.get();
}

QModelIndex JsonTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    if (column < 0 || column >= ColumnCount || (parent.isValid() && parent.column() != 0))
        return {};
    Node *p = nodeAt(parent);
    if (row < 0 || row >= int(p->children.size()))
        return {};
    return createIndex(row, column, p->children[std::size_t(row)].get());
}

QModelIndex JsonTreeModel::parent(const QModelIndex &child) const
{
    if (!child.isValid())
        return {};
    Node *n = nodeAt(child);
    if (!n->parent || n->parent == m_root.get())
        return {};
    return createIndex(n->parent->row, 0, n->parent);
}

int JsonTreeModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid() && parent.column() != 0)
        return 0;
    return int(nodeAt(parent)->children.size());
}

int JsonTreeModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QVariant JsonTreeModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid())
        return {};
    const Node *n = nodeAt(index);
    switch (role) {
    case PointerRole:
        return pointerOf(n);
    case RawValueRole:
        return compact(n->value);
    case Qt::ToolTipRole:
        return plainToolTip(pointerOf(n)); // key names come from the webhook's sender
    case Qt::DisplayRole:
        switch (index.column()) {
        case KeyColumn:
            return n->key;
        case ValueColumn:
            if (n->value.isObject())
                return QStringLiteral("{%1}").arg(n->children.size());
            if (n->value.isArray())
                return QStringLiteral("[%1]").arg(n->children.size());
            return compact(n->value);
        case TypeColumn:
            return typeName(n->value);
        default:
            return {};
        }
    default:
        return {};
    }
}

QVariant JsonTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case KeyColumn:
        return tr("Key");
    case ValueColumn:
        return tr("Value");
    case TypeColumn:
        return tr("Type");
    default:
        return {};
    }
}

QString JsonTreeModel::pointerAt(const QModelIndex &index) const
{
    return index.isValid() ? pointerOf(nodeAt(index)) : QString();
}

QString JsonTreeModel::pointerOf(const Node *node)
{
    std::vector<const Node *> chain;
    qsizetype size = 0;
    for (const Node *n = node; n && n->parent; n = n->parent) {
        chain.push_back(n);
        size += 1 + n->key.size();
    }
    QString pointer;
    pointer.reserve(size);
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
        pointer += u'/';
        pointer += escapePointerToken((*it)->key);
    }
    return pointer;
}

} // namespace redrive::ui
