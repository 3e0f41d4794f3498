// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "signingkey.h"

#include "crypto/crypto.h"

#include <QFile>
#include <QFileInfo>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace redrive::audit {

struct SigningKey::Impl {
    EVP_PKEY *key = nullptr;
    ~Impl() { EVP_PKEY_free(key); }
};

namespace {
struct BioDeleter {
    void operator()(BIO *b) const { BIO_free(b); }
};
struct MdCtxDeleter {
    void operator()(EVP_MD_CTX *c) const { EVP_MD_CTX_free(c); }
};
struct PkeyCtxDeleter {
    void operator()(EVP_PKEY_CTX *c) const { EVP_PKEY_CTX_free(c); }
};
struct PkeyDeleter {
    void operator()(EVP_PKEY *k) const { EVP_PKEY_free(k); }
};

QString opensslError()
{
    const unsigned long code = ERR_get_error();
    ERR_clear_error();
    if (code == 0)
        return QStringLiteral("unknown OpenSSL error");
    char buf[256];
    ERR_error_string_n(code, buf, sizeof buf);
    return QString::fromLatin1(buf);
}

QString systemError()
{
    return QString::fromLocal8Bit(std::strerror(errno));
}

bool writeAll(int fd, const QByteArray &data)
{
    qsizetype done = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(fd, data.constData() + done, static_cast<size_t>(data.size() - done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        done += n;
    }
    return true;
}
} // namespace

SigningKey::SigningKey(std::unique_ptr<Impl> impl)
    : d(std::move(impl))
{ }

SigningKey::~SigningKey() = default;

Result<std::unique_ptr<SigningKey>> SigningKey::generate()
{
    std::unique_ptr<EVP_PKEY_CTX, PkeyCtxDeleter> ctx(EVP_PKEY_CTX_new_id(EVP_PKEY_ED25519, nullptr));
    EVP_PKEY *raw = nullptr;
    if (!ctx || EVP_PKEY_keygen_init(ctx.get()) != 1 || EVP_PKEY_keygen(ctx.get(), &raw) != 1)
        return Failure(QStringLiteral("cannot generate an Ed25519 key: ") + opensslError());
    auto impl = std::make_unique<Impl>();
    impl->key = raw;
    return std::unique_ptr<SigningKey>(new SigningKey(std::move(impl)));
}

Result<std::unique_ptr<SigningKey>> SigningKey::load(const QString &path)
{
    const QByteArray native = QFile::encodeName(path);
    struct stat st { };
    if (::stat(native.constData(), &st) != 0)
        return Failure(QStringLiteral("cannot read audit key %1: %2").arg(path, systemError()));
    if ((st.st_mode & 077) != 0)
        return Failure(QStringLiteral("audit key %1 is accessible by other users (mode %2); run chmod 600 %1")
                           .arg(path)
                           .arg(st.st_mode & 0777, 3, 8, QLatin1Char('0')));
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Failure(QStringLiteral("cannot read audit key %1: %2").arg(path, file.errorString()));
    const QByteArray pem = file.read(64LL * 1024);
    std::unique_ptr<BIO, BioDeleter> bio(BIO_new_mem_buf(pem.constData(), static_cast<int>(pem.size())));
    EVP_PKEY *raw = bio ? PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr) : nullptr;
    std::unique_ptr<EVP_PKEY, PkeyDeleter> key(raw);
    if (!key) {
        ERR_clear_error();
        return Failure(QStringLiteral("audit key %1 is not a PEM private key").arg(path));
    }
    if (EVP_PKEY_get_base_id(key.get()) != EVP_PKEY_ED25519)
        return Failure(QStringLiteral("audit key %1 is not an Ed25519 key").arg(path));
    auto impl = std::make_unique<Impl>();
    impl->key = key.release();
    return std::unique_ptr<SigningKey>(new SigningKey(std::move(impl)));
}

Result<std::unique_ptr<SigningKey>> SigningKey::loadOrCreate(const QString &path, bool *created)
{
    if (created)
        *created = false;
    if (QFileInfo::exists(path))
        return load(path);

    auto generated = generate();
    if (!generated)
        return Failure(generated.error());
    std::unique_ptr<SigningKey> key = std::move(*generated);
    std::unique_ptr<BIO, BioDeleter> bio(BIO_new(BIO_s_mem()));
    if (!bio || PEM_write_bio_PrivateKey(bio.get(), key->d->key, nullptr, nullptr, 0, nullptr, nullptr) != 1)
        return Failure(QStringLiteral("cannot encode the audit key: ") + opensslError());
    char *data = nullptr;
    const long size = BIO_get_mem_data(bio.get(), &data);
    const QByteArray pem(data, static_cast<qsizetype>(size));

    // Write a private temporary file, then link it into place: link() fails if another process
    // created the key first, and nobody can ever read a partial key file.
    const QByteArray target = QFile::encodeName(path);
    const QByteArray temp
        = target + ".tmp." + QByteArray::number(::getpid()) + '.' + crypto::randomBytes(4).toHex();
    const int fd = ::open(temp.constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        return Failure(QStringLiteral("cannot create audit key %1: %2").arg(path, systemError()));
    const bool written = writeAll(fd, pem) && ::fsync(fd) == 0;
    ::close(fd);
    if (!written) {
        const QString why = QStringLiteral("cannot write audit key %1: %2").arg(path, systemError());
        ::unlink(temp.constData());
        return Failure(why);
    }
    const int linked = ::link(temp.constData(), target.constData());
    const int linkErrno = errno;
    ::unlink(temp.constData());
    if (linked != 0) {
        if (linkErrno == EEXIST)
            return load(path);
        errno = linkErrno;
        return Failure(QStringLiteral("cannot create audit key %1: %2").arg(path, systemError()));
    }
    if (created)
        *created = true;
    return key;
}

QByteArray SigningKey::publicKey() const
{
    QByteArray out(32, Qt::Uninitialized);
    size_t len = static_cast<size_t>(out.size());
    if (EVP_PKEY_get_raw_public_key(d->key, reinterpret_cast<unsigned char *>(out.data()), &len) != 1)
        return {};
    out.resize(static_cast<qsizetype>(len));
    return out;
}

QString SigningKey::keyIdOf(QByteArrayView publicKey)
{
    return QString::fromLatin1(crypto::sha256Hex(publicKey).left(16));
}

Result<QByteArray> SigningKey::publicKeyFromPem(QByteArrayView pem)
{
    std::unique_ptr<BIO, BioDeleter> bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
    std::unique_ptr<EVP_PKEY, PkeyDeleter> key(
        bio ? PEM_read_bio_PUBKEY(bio.get(), nullptr, nullptr, nullptr) : nullptr);
    if (!key) {
        ERR_clear_error();
        return Failure(QStringLiteral("it holds no PEM public key"));
    }
    if (EVP_PKEY_get_base_id(key.get()) != EVP_PKEY_ED25519)
        return Failure(QStringLiteral("its public key is not an Ed25519 key"));
    QByteArray out(32, Qt::Uninitialized);
    size_t len = static_cast<size_t>(out.size());
    if (EVP_PKEY_get_raw_public_key(key.get(), reinterpret_cast<unsigned char *>(out.data()), &len) != 1
        || len != 32) {
        ERR_clear_error();
        return Failure(QStringLiteral("its Ed25519 public key cannot be read"));
    }
    return out;
}

QString SigningKey::keyId() const
{
    return keyIdOf(publicKey());
}

QByteArray SigningKey::sign(QByteArrayView message) const
{
    // A fresh context per call: signing is then safe from several threads on one const key.
    std::unique_ptr<EVP_MD_CTX, MdCtxDeleter> ctx(EVP_MD_CTX_new());
    if (!ctx || EVP_DigestSignInit(ctx.get(), nullptr, nullptr, nullptr, d->key) != 1)
        return {};
    QByteArray sig(64, Qt::Uninitialized);
    size_t len = static_cast<size_t>(sig.size());
    if (EVP_DigestSign(ctx.get(), reinterpret_cast<unsigned char *>(sig.data()), &len,
            reinterpret_cast<const unsigned char *>(message.data()), static_cast<size_t>(message.size()))
        != 1) {
        ERR_clear_error();
        return {};
    }
    sig.resize(static_cast<qsizetype>(len));
    return sig;
}

bool SigningKey::verify(QByteArrayView publicKey, QByteArrayView message, QByteArrayView signature)
{
    if (publicKey.size() != 32 || signature.size() != 64)
        return false;
    std::unique_ptr<EVP_PKEY, PkeyDeleter> key(EVP_PKEY_new_raw_public_key(
        EVP_PKEY_ED25519, nullptr, reinterpret_cast<const unsigned char *>(publicKey.data()), 32));
    std::unique_ptr<EVP_MD_CTX, MdCtxDeleter> ctx(EVP_MD_CTX_new());
    if (!key || !ctx || EVP_DigestVerifyInit(ctx.get(), nullptr, nullptr, nullptr, key.get()) != 1) {
        ERR_clear_error();
        return false;
    }
    const int ok = EVP_DigestVerify(ctx.get(), reinterpret_cast<const unsigned char *>(signature.data()),
        static_cast<size_t>(signature.size()), reinterpret_cast<const unsigned char *>(message.data()),
        static_cast<size_t>(message.size()));
    ERR_clear_error();
    return ok == 1;
}

} // namespace redrive::audit
