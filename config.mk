# pandia build configuration: override on the command line or in the
# environment (make PREFIX=/opt/pandia install).
VERSION = 0.1.0
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
MANDIR ?= $(PREFIX)/share/man
DATADIR ?= $(PREFIX)/share/pandia

CC ?= cc
PKG_CONFIG ?= pkg-config
OPT ?= -O2
CFLAGS ?= $(OPT) -g
