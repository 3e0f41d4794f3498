// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QAbstractItemModel>
#include <QJsonValue>

#include <memory>
#include <vector>

namespace redrive::ui {

// A webhook payload as an expandable tree: one row per object member or array element.
// Values are shown as plain text (never interpreted as markup).
class JsonTreeModel final : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { KeyColumn, ValueColumn, TypeColumn, ColumnCount };
    enum Role {
        PointerRole = Qt::UserRole, // RFC 6901 JSON pointer of the node ("/items/0/id")
        RawValueRole, // the node's value as compact JSON text
    };

    explicit JsonTreeModel(QObject *parent = nullptr);
    ~JsonTreeModel() override;

    // False (and an empty tree) when `body` is not JSON; `error` says where it broke.
    bool setJson(const QByteArray &body, QString *error = nullptr);
    void clear();

    [[nodiscard]] QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    [[nodiscard]] QModelIndex parent(const QModelIndex &child) const override;
    [[nodiscard]] int rowCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    [[nodiscard]] QString pointerAt(const QModelIndex &index) const;

private:
    // A node keeps its own key only: its JSON pointer is built from the parent chain when asked.
    // Stored per node, pointers would cost every node's depth times its keys' length, which
    // for a deep body with long keys is quadratic in its size.
    struct Node {
        QString key;
        QJsonValue value;
        Node *parent = nullptr;
        int row = 0;
        std::vector<std::unique_ptr<Node>> children;
    };
    static void build(Node *node);
    [[nodiscard]] static QString pointerOf(const Node *node);
    [[nodiscard]] Node *nodeAt(const QModelIndex &index) const;
    std::unique_ptr<Node> m_root;
};

} // namespace redrive::ui
