# lbsim notebooks in a container: Go 1.26 on Debian bookworm, set up by the same script CI runs.
#   docker build -t lbsim .
#   docker run --rm -p 8888:8888 lbsim     # then open the http://127.0.0.1:8888/?token=... URL it prints
FROM golang:1.26-bookworm
WORKDIR /lbsim
# Set-up first (Jupyter, Chromium, GoNB kernel): it needs only go.mod/go.sum and .ci/ (the script
# and its patch of GoNB), so this layer is reused when only code or notebooks change.
COPY go.mod go.sum ./
COPY .ci .ci
RUN .ci/setup.sh
# The project, file by file, so that a host's .bin/ or reports/ never enter the image.
COPY Makefile README.md ./
COPY lbsim lbsim
COPY data data
COPY notebooks notebooks
EXPOSE 8888
CMD ["make", "notebook", "NOTEBOOK_IP=0.0.0.0"]
